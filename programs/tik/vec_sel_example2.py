"""vec_sel with a partial mask and repeat strides (the TIK vec_sel page's "example 2", written
for pipev): each of 2 repeats selects 48 halves by the first 128 bits of is_le; the results land
48 values apart (dst repeat stride 6 blocks) in a dst cleared by vec_dup."""
from tbe import tik

ELEMENT_BYTES = {"float16": 2, "float32": 4}
dtype = "float16"
shape, dst_shape = (2, 64), (12, 16)
elements, dst_elements = 2 * 64, 12 * 16

tik_instance = tik.Tik()
src0_gm = tik_instance.Tensor(dtype, shape, name="src0_gm", scope=tik.scope_gm)
src1_gm = tik_instance.Tensor(dtype, shape, name="src1_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor(dtype, dst_shape, name="dst_gm", scope=tik.scope_gm)
src0_ub = tik_instance.Tensor(dtype, shape, name="src0_ub", scope=tik.scope_ubuf)
src1_ub = tik_instance.Tensor(dtype, shape, name="src1_ub", scope=tik.scope_ubuf)
dst_ub = tik_instance.Tensor(dtype, dst_shape, name="dst_ub", scope=tik.scope_ubuf)
is_le = tik_instance.Tensor("uint16", (16,), name="is_le", scope=tik.scope_ubuf)

blocks = elements * ELEMENT_BYTES[dtype] // 32
dst_blocks = dst_elements * ELEMENT_BYTES[dtype] // 32
tik_instance.data_move(src0_ub, src0_gm, 0, 1, blocks, 0, 0)
tik_instance.data_move(src1_ub, src1_gm, 0, 1, blocks, 0, 0)
tik_instance.vec_cmpv_le(is_le, src0_ub, src1_ub, 1, 8, 8)
tik_instance.vec_dup(64, dst_ub, 0, 3, 4)
tik_instance.vec_sel(48, 0, dst_ub, is_le, src0_ub, src1_ub, 2, 6, 4, 4)
tik_instance.data_move(dst_gm, dst_ub, 0, 1, dst_blocks, 0, 0)
tik_instance.BuildCCE(kernel_name="vec_sel", inputs=[src0_gm, src1_gm], outputs=[dst_gm])
