"""#27, TIK: the mixed forms — vec_axpy and the older vaxpy / vmla with float16 sources into a
float32 destination (64 elements a repeat), every accumulator starting from d; output row k of
z_gm is call k below. pipev's own test kernel (tests/cli/test_binary_cast_kernels.py)."""
from tbe import tik

N = 64
CALLS = ("vec_axpy", "vaxpy", "vmla")


def mixed_kernel():
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float16", (N,), name="x_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("float16", (N,), name="y_gm", scope=tik.scope_gm)
    d_gm = tik_instance.Tensor("float32", (len(CALLS) * N,), name="d_gm", scope=tik.scope_gm)
    z_gm = tik_instance.Tensor("float32", (len(CALLS) * N,), name="z_gm", scope=tik.scope_gm)
    x = tik_instance.Tensor("float16", (N,), name="x", scope=tik.scope_ubuf)
    y = tik_instance.Tensor("float16", (N,), name="y", scope=tik.scope_ubuf)
    z = tik_instance.Tensor("float32", (len(CALLS) * N,), name="z", scope=tik.scope_ubuf)
    tik_instance.data_move(x, x_gm, 0, 1, N * 2 // 32, 0, 0)
    tik_instance.data_move(y, y_gm, 0, 1, N * 2 // 32, 0, 0)
    tik_instance.data_move(z, d_gm, 0, 1, len(CALLS) * N * 4 // 32, 0, 0)
    tik_instance.vec_axpy(64, z[0], x, 0.5, 1, 8, 4)
    tik_instance.vaxpy(64, z[N], x, -3.0, 1, 1, 1, 8, 4)
    tik_instance.vmla(64, z[2 * N], x, y, 1, 1, 1, 1, 8, 4, 4)
    tik_instance.data_move(z_gm, z, 0, 1, len(CALLS) * N * 4 // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="axpy_mixed_tik", inputs=[x_gm, y_gm, d_gm],
                          outputs=[z_gm])
    return tik_instance


if __name__ == "__main__":
    mixed_kernel()
