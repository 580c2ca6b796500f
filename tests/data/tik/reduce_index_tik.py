# ReduceMax / ReduceMin with cal_index in TIK (issue 28): vec_reduce_max/min over 4096 float16
# (32 repeats), the value and its position (raw bits in a float16) in y[0:2] and y[16:18].
# pipev's own kernel.
from tbe import tik

tik_instance = tik.Tik()
x = tik_instance.Tensor("float16", (4096,), name="x", scope=tik.scope_gm)
y = tik_instance.Tensor("float16", (32,), name="y", scope=tik.scope_gm)
xu = tik_instance.Tensor("float16", (4096,), name="xu", scope=tik.scope_ubuf)
work = tik_instance.Tensor("float16", (512,), name="work", scope=tik.scope_ubuf)
yu = tik_instance.Tensor("float16", (32,), name="yu", scope=tik.scope_ubuf)
tik_instance.data_move(xu, x, 0, 1, 256, 0, 0)
tik_instance.vector_dup(32, yu, 0.0, 1, 1, 8)
tik_instance.vec_reduce_max(128, yu, xu, work, 32, 8, cal_index=True)
tik_instance.vec_reduce_min(128, yu[16], xu, work, 32, 8, cal_index=True)
tik_instance.data_move(y, yu, 0, 1, 2, 0, 0)
tik_instance.BuildCCE(kernel_name="reduce_index", inputs=[x], outputs=[y])
