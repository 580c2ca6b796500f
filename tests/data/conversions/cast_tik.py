"""#27 (27b), TIK: vec_conv and the older vconv (block strides) on the Cast pairs issue #27
added — float32 -> float32 / int16 / int64, int64 -> float32 / int32, int32 -> int16 / int64,
int16 -> float32, bfloat16 -> int32 — 64 elements each, from one float32 input. pipev's own
test kernel (tests/unit/test_cast_pairs.py checks every output against the exact reference)."""
from tbe import tik

N = 64
OUTPUTS = {  # name: (dtype, the call's round_mode, what it converts)
    "g": ("float32", "floor", "x"), "l": ("int64", "round", "g"), "i": ("int32", "", "l"),
    "s": ("int16", "", "i"), "f": ("float32", "", "s"), "t": ("int16", "to-zero", "x"),
    "w": ("int64", "", "i"), "h": ("float32", "ceil", "w"), "b": ("bfloat16", "round", "x"),
    "k": ("int32", "away-zero", "b"),
}


def _size(dtype: str) -> int:
    return 8 if "64" in dtype else 2 if "16" in dtype else 4


def cast_kernel():
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float32", (N,), name="x_gm", scope=tik.scope_gm)
    ub = {"x": tik_instance.Tensor("float32", (N,), name="x", scope=tik.scope_ubuf)}
    gm = {}
    for name, (dtype, _, _) in OUTPUTS.items():
        ub[name] = tik_instance.Tensor(dtype, (N,), name=name, scope=tik.scope_ubuf)
        gm[name] = tik_instance.Tensor(dtype, (N,), name=f"{name}_gm", scope=tik.scope_gm)
    tik_instance.data_move(ub["x"], x_gm, 0, 1, N * 4 // 32, 0, 0)
    for k, (name, (dtype, mode, src)) in enumerate(OUTPUTS.items()):
        d, s = ub[name], ub[src]
        per = 256 // max(_size(dtype), _size(s.dtype))  # elements a repeat: the wider type's
        d_rep, s_rep = per * _size(dtype) // 32, per * _size(s.dtype) // 32
        if k % 2:  # the older name: block strides too
            tik_instance.vconv(per, mode, d, s, N // per, 1, 1, d_rep, s_rep)
        else:
            tik_instance.vec_conv(per, mode, d, s, N // per, d_rep, s_rep)
    for name, (dtype, _, _) in OUTPUTS.items():
        tik_instance.data_move(gm[name], ub[name], 0, 1, N * _size(dtype) // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="cast_tik", inputs=[x_gm],
                          outputs=[gm[n] for n in OUTPUTS])
    return tik_instance


if __name__ == "__main__":
    cast_kernel()
