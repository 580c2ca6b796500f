# GatherMask in TIK (issue 28): vreduce compacts the elements a compare kept (a user pattern),
# then every fourth element from the first (built-in pattern 3, counter mode); the counts go to
# GM through rsvd_scalar. pipev's own test kernel.
from tbe import tik

tik_instance = tik.Tik()
src = tik_instance.Tensor("float32", (128,), name="src", scope=tik.scope_gm)
out = tik_instance.Tensor("float32", (80,), name="out", scope=tik.scope_gm)
a = tik_instance.Tensor("float32", (128,), name="a", scope=tik.scope_ubuf)
p = tik_instance.Tensor("uint32", (8,), name="p", scope=tik.scope_ubuf)
d = tik_instance.Tensor("float32", (80,), name="d", scope=tik.scope_ubuf)
kept = tik_instance.Scalar("int32", name="kept")
tik_instance.data_move(a, src, 0, 1, 16, 0, 0)
tik_instance.vec_dup(64, d, 0.0, 1, 8)
tik_instance.vec_dup(16, d[64], 0.0, 1, 8)
tik_instance.vec_cmpv_gt(p, a, a[64], 1, 8, 8)
tik_instance.vreduce(64, d, a, p, 1, 1, 8, 0, rsvd_scalar=kept)
tik_instance.vreduce(64, d[64], a, 3, 1, 1, 8, 0, mask_mode="counter")
tik_instance.data_move(out, d, 0, 1, 10, 0, 0)
tik_instance.BuildCCE(kernel_name="gather_mask", inputs=[src], outputs=[out])
