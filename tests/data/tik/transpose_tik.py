# Transpose in TIK (issue 28): vec_trans of two 16 x 16 float16 matrices. pipev's own kernel.
from tbe import tik

tik_instance = tik.Tik()
src = tik_instance.Tensor("float16", (512,), name="src", scope=tik.scope_gm)
out = tik_instance.Tensor("float16", (512,), name="out", scope=tik.scope_gm)
a = tik_instance.Tensor("float16", (512,), name="a", scope=tik.scope_ubuf)
d = tik_instance.Tensor("float16", (512,), name="d", scope=tik.scope_ubuf)
tik_instance.data_move(a, src, 0, 1, 32, 0, 0)
tik_instance.vec_trans(d, a, 2, 1, 1)
tik_instance.data_move(out, d, 0, 1, 32, 0, 0)
tik_instance.BuildCCE(kernel_name="transpose", inputs=[src], outputs=[out])
