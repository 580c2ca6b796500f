# vconv's dequantising modes in TIK (#27, #29): int32 accumulators to float16 with a float16
# deqscale (vec_conv), int16 to int8 per tensor (a uint64 deqscale word, the low halves) and to
# uint8 per block (a uint64 tensor of 16 words, ldst_high_half) with the older vconv. pipev's
# own kernel, in the operators' style.
from tbe import tik

DEQ_SIGN = 1 << 46


def deq_word(scale_bits, offset, signed):
    """DEQSCALE's word: the f32 scale in [31:0], the s9 offset in [45:37], the sign in [46]."""
    return scale_bits | ((offset & 0x1FF) << 37) | (DEQ_SIGN if signed else 0)


tik_instance = tik.Tik()
acc = tik_instance.Tensor("int32", (128,), name="acc", scope=tik.scope_gm)
q16 = tik_instance.Tensor("int16", (256,), name="q16", scope=tik.scope_gm)
words = tik_instance.Tensor("uint64", (16,), name="words", scope=tik.scope_gm)
out_h = tik_instance.Tensor("float16", (128,), name="out_h", scope=tik.scope_gm)
out_s8 = tik_instance.Tensor("int8", (512,), name="out_s8", scope=tik.scope_gm)
out_u8 = tik_instance.Tensor("uint8", (512,), name="out_u8", scope=tik.scope_gm)
acc_ub = tik_instance.Tensor("int32", (128,), name="acc_ub", scope=tik.scope_ubuf)
q_ub = tik_instance.Tensor("int16", (256,), name="q_ub", scope=tik.scope_ubuf)
w_ub = tik_instance.Tensor("uint64", (16,), name="w_ub", scope=tik.scope_ubuf)
h_ub = tik_instance.Tensor("float16", (128,), name="h_ub", scope=tik.scope_ubuf)
s8_ub = tik_instance.Tensor("int8", (512,), name="s8_ub", scope=tik.scope_ubuf)
u8_ub = tik_instance.Tensor("uint8", (512,), name="u8_ub", scope=tik.scope_ubuf)
tik_instance.data_move(acc_ub, acc, 0, 1, 16, 0, 0)
tik_instance.data_move(q_ub, q16, 0, 1, 16, 0, 0)
tik_instance.data_move(w_ub, words, 0, 1, 4, 0, 0)
tik_instance.vector_dup(128, s8_ub.reinterpret_cast_to("float16"), 0.0, 2, 1, 8)
tik_instance.vector_dup(128, u8_ub.reinterpret_cast_to("float16"), 0.0, 2, 1, 8)
# int32 → float16, scale 1/64 (a Scalar in a loop would be a register)
tik_instance.vec_conv(64, "", h_ub, acc_ub, 2, 4, 8, deqscale=0.015625)
# int16 → int8 per tensor: scale 0.5, offset -2, signed; each block's low half
tik_instance.vconv(128, "", s8_ub, q_ub, 2, 1, 1, 8, 8,
                   deqscale=deq_word(0x3F000000, -2, True))
# int16 → uint8 per block: the 16 words in UB, each block's high half
tik_instance.vconv(128, "", u8_ub, q_ub, 2, 1, 1, 8, 8, deqscale=w_ub, ldst_high_half=True)
tik_instance.data_move(out_h, h_ub, 0, 1, 8, 0, 0)
tik_instance.data_move(out_s8, s8_ub, 0, 1, 16, 0, 0)
tik_instance.data_move(out_u8, u8_ub, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="dequant", inputs=[acc, q16, words],
                      outputs=[out_h, out_s8, out_u8])
