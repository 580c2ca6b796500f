"""#27a, TIK: vec_exp vec_ln vec_sqrt vec_rsqrt vec_rec vec_relu vec_div vec_leaky_relu and the
older names with block strides (vexp, vdiv, vadds, vrelu ...) on 128 float16 each; output row
k of z_gm is call k below. pipev's own test kernel (tests/cli/test_elementwise_kernels.py)."""
from tbe import tik

N = 128
CALLS = ("vec_exp", "vec_ln", "vec_sqrt", "vec_rsqrt", "vec_rec", "vec_relu", "vec_div",
         "vec_leaky_relu", "vexp", "vdiv", "vadds", "vrelu", "vsub")


def math_kernel():
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float16", (N,), name="x_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("float16", (N,), name="y_gm", scope=tik.scope_gm)
    z_gm = tik_instance.Tensor("float16", (len(CALLS) * N,), name="z_gm", scope=tik.scope_gm)
    x = tik_instance.Tensor("float16", (N,), name="x", scope=tik.scope_ubuf)
    y = tik_instance.Tensor("float16", (N,), name="y", scope=tik.scope_ubuf)
    z = tik_instance.Tensor("float16", (len(CALLS) * N,), name="z", scope=tik.scope_ubuf)
    tik_instance.data_move(x, x_gm, 0, 1, N * 2 // 32, 0, 0)
    tik_instance.data_move(y, y_gm, 0, 1, N * 2 // 32, 0, 0)
    tik_instance.vec_exp(128, z[0], x, 1, 8, 8)
    tik_instance.vec_ln(64, z[N], x, 2, 4, 4)  # mask 64: two repeats of 64
    tik_instance.vec_sqrt(128, z[2 * N], x, 1, 8, 8)
    tik_instance.vec_rsqrt(128, z[3 * N], x, 1, 8, 8)
    tik_instance.vec_rec(128, z[4 * N], x, 1, 8, 8)
    tik_instance.vec_relu(128, z[5 * N], x, 1, 8, 8)
    tik_instance.vec_div(128, z[6 * N], x, y, 1, 8, 8, 8)
    tik_instance.vec_leaky_relu(128, z[7 * N], x, 0.5, 1, 8, 8)
    tik_instance.vexp(128, z[8 * N], x, 1, 1, 1, 8, 8)
    tik_instance.vdiv(128, z[9 * N], x, y, 1, 1, 1, 1, 8, 8, 8)
    tik_instance.vadds(128, z[10 * N], x, -1.0, 1, 1, 1, 8, 8)
    tik_instance.vrelu(128, z[11 * N], x, 1, 1, 1, 8, 8)
    tik_instance.vsub(128, z[12 * N], x, y, 1, 1, 1, 1, 8, 8, 8)
    tik_instance.data_move(z_gm, z, 0, 1, len(CALLS) * N * 2 // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="math_tik", inputs=[x_gm, y_gm], outputs=[z_gm])
    return tik_instance


if __name__ == "__main__":
    math_kernel()
