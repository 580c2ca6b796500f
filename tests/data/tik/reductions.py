"""The TIK whole-repeat, per-block and pair reductions (vcmax vcmin vcadd vcgmax vcgmin vcgadd
vcpadd) on one float32 input: pipev's own test kernel (tests/unit/test_reduce.py runs it and
compares every output byte with tests/reference/reduce.py)."""
from tbe import tik

tik_instance = tik.Tik()
src = tik_instance.Tensor("float32", (512,), name="src", scope=tik.scope_gm)
out = tik_instance.Tensor("float32", (256,), name="out", scope=tik.scope_gm)
a = tik_instance.Tensor("float32", (512,), name="a", scope=tik.scope_ubuf)
d = tik_instance.Tensor("float32", (256,), name="d", scope=tik.scope_ubuf)
w = tik_instance.Tensor("float32", (64,), name="w", scope=tik.scope_ubuf)
tik_instance.data_move(a, src, 0, 1, 64, 0, 0)
tik_instance.vec_dup(64, d, 0.0, 4, 8)
tik_instance.vcmax(64, d, a, 8, 1, 1, 8)  # (value, index) a repeat: d[0:16]
tik_instance.vcmin([0, 0xFF00FF00FF00FF00], d[16], a, 4, 1, 1, 16)  # d[16:24], src_rep 16
tik_instance.vcadd(40, d[24], a, 8, 1, 1, 8)  # one sum a repeat: d[24:32]
tik_instance.vcgmax(64, d[32], a, 2, 1, 1, 8)  # eight a repeat: d[32:48]
tik_instance.vcgmin([0, 0x00FF00FF00FF00FF], d[48], a, 2, 1, 1, 8)  # odd blocks masked: kept
tik_instance.vcgadd(64, d[64], a, 2, 2, 1, 8)  # dst_rep 2: d[64:72] and d[80:88]
tik_instance.vcpadd(64, d[96], a, 2, 1, 1, 8)  # 32 pairs a repeat: d[96:160]
tik_instance.vec_reduce_max(64, d[160], a, w, 8, 8)  # the composites: d[160], d[168], d[176]
tik_instance.vec_reduce_min(32, d[168], a, w, 4, 16, cal_index=False)
tik_instance.vec_reduce_add(64, d[176], a, work_tensor=w, repeat_times=8, src_rep_stride=8)
tik_instance.data_move(out, d, 0, 1, 32, 0, 0)
tik_instance.BuildCCE(kernel_name="reductions", inputs=[src], outputs=[out])
