"""vec_sel mode 0 (the TIK vec_sel page's first example, written for pipev): compare two f16
tensors into the bit mask is_le, then select by it with the same 128 bits every repeat.

    pipev run programs/tik/vec_sel_mode0.py --input src0_gm=a.npy --input src1_gm=b.npy
"""
from tbe import tik

tik_instance = tik.Tik()
src0_gm = tik_instance.Tensor("float16", (256,), name="src0_gm", scope=tik.scope_gm)
src1_gm = tik_instance.Tensor("float16", (256,), name="src1_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("float16", (256,), name="dst_gm", scope=tik.scope_gm)
src0_ub = tik_instance.Tensor("float16", (256,), name="src0_ub", scope=tik.scope_ubuf)
src1_ub = tik_instance.Tensor("float16", (256,), name="src1_ub", scope=tik.scope_ubuf)
dst_ub = tik_instance.Tensor("float16", (256,), name="dst_ub", scope=tik.scope_ubuf)
is_le = tik_instance.Tensor("uint16", (16,), name="is_le", scope=tik.scope_ubuf)

tik_instance.data_move(src0_ub, src0_gm, 0, 1, 16, 0, 0)
tik_instance.data_move(src1_ub, src1_gm, 0, 1, 16, 0, 0)
tik_instance.vec_cmpv_le(is_le, src0_ub, src1_ub, 2, 8, 8)
tik_instance.vec_sel(128, 0, dst_ub, is_le, src0_ub, src1_ub, 2, 8, 8, 8)
tik_instance.data_move(dst_gm, dst_ub, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="vec_sel", inputs=[src0_gm, src1_gm], outputs=[dst_gm])
