"""vec_sel mode 1 (the TIK vec_sel page's second example, written for pipev): each bit of sel
picks src0 (1) or the scalar 5.2 (0); one repeat of 128 halves."""
from tbe import tik

tik_instance = tik.Tik()
src0_gm = tik_instance.Tensor("float16", (128,), name="src0_gm", scope=tik.scope_gm)
sel_gm = tik_instance.Tensor("uint16", (16,), name="sel_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("float16", (128,), name="dst_gm", scope=tik.scope_gm)
src0_ub = tik_instance.Tensor("float16", (128,), name="src0_ub", scope=tik.scope_ubuf)
sel_ub = tik_instance.Tensor("uint16", (16,), name="sel_ub", scope=tik.scope_ubuf)
dst_ub = tik_instance.Tensor("float16", (128,), name="dst_ub", scope=tik.scope_ubuf)

tik_instance.data_move(src0_ub, src0_gm, 0, 1, 8, 0, 0)
tik_instance.data_move(sel_ub, sel_gm, 0, 1, 1, 0, 0)
other = tik_instance.Scalar(dtype="float16", init_value=5.2)
tik_instance.vec_sel(128, 1, dst_ub, sel_ub, src0_ub, other, 1, 8, 8, 8)
tik_instance.data_move(dst_gm, dst_ub, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="vec_sel", inputs=[src0_gm, sel_gm], outputs=[dst_gm])
