# TransDataTo5HD in TIK (issue 28): NCHW -> NC1HWC0 of a (C = 16, H·W = 64) float16 plane with
# vec_trans_scatter (4 repeats), and the high bytes of 16 int8 blocks with the older vnchwconv,
# its repeat count a Scalar. pipev's own kernel.
from tbe import tik

tik_instance = tik.Tik()
x = tik_instance.Tensor("float16", (1024,), name="x", scope=tik.scope_gm)
y = tik_instance.Tensor("float16", (1024,), name="y", scope=tik.scope_gm)
b = tik_instance.Tensor("int8", (512,), name="b", scope=tik.scope_gm)
c = tik_instance.Tensor("int8", (512,), name="c", scope=tik.scope_gm)
xu = tik_instance.Tensor("float16", (1024,), name="xu", scope=tik.scope_ubuf)
yu = tik_instance.Tensor("float16", (1024,), name="yu", scope=tik.scope_ubuf)
bu = tik_instance.Tensor("int8", (512,), name="bu", scope=tik.scope_ubuf)
cu = tik_instance.Tensor("int8", (512,), name="cu", scope=tik.scope_ubuf)
tik_instance.data_move(xu, x, 0, 1, 64, 0, 0)
tik_instance.data_move(bu, b, 0, 1, 16, 0, 0)
tik_instance.vector_dup(128, cu.reinterpret_cast_to("float16"), 0.0, 2, 1, 8)
src_list = [xu[64 * i] for i in range(16)]
dst_list = [yu[16 * i] for i in range(16)]
tik_instance.vec_trans_scatter(False, False, dst_list, src_list, 4, 16, 1)
repeat = tik_instance.Scalar("int32", init_value=1)
tik_instance.vnchwconv(True, True, [cu[32 * i] for i in range(16)],
                       [bu[32 * i] for i in range(16)], repeat, 0, 0)
tik_instance.data_move(y, yu, 0, 1, 64, 0, 0)
tik_instance.data_move(c, cu, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="trans_5hd", inputs=[x, b], outputs=[y, c])
