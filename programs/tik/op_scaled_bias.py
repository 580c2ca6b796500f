"""A dynamic-shape operator in the vendor library's style (our own): y = x * scale + bias[i % 40]
over a GM tensor declared at its maximum shape, the element count and per-core split read from a
tiling tensor, on CORE_NUM cores. It imports the op framework, builds with tik.Dprofile(), loads
and stores single elements through the scalar unit, keeps a float Scalar across a loop, divides
by 40 and passes a runtime Scalar to vec_muls / vec_adds.

    pipev python programs/tik/op_scaled_bias.py                  # start_debug, checked vs numpy
    pipev run programs/tik/op_scaled_bias.py --input x=x.npy --input tiling=t.npy
"""
import numpy as np
from impl.util.platform_adapter import para_check, tbe_platform, tik

MAX_ELEMENTS = 2 ** 31 - 1  # the dynamic-shape maximum: costs nothing until touched
TILE = 2048  # float32 elements a core handles per tile
CORE_NUM = 4
TILING_ARGS = 8  # int32: [elements, per_core, tiles_per_core, scale_bits, 0...]


class ScaledBias:
    def __init__(self, kernel_name):
        self.tik_instance = tik.Tik(tik.Dprofile(), disable_debug=False)
        self.ub_size = tbe_platform.get_soc_spec(tbe_platform.UB_SIZE)
        self.kernel_name = kernel_name
        tik_instance = self.tik_instance
        self.x = tik_instance.Tensor("float32", (MAX_ELEMENTS,), name="x", scope=tik.scope_gm)
        self.y = tik_instance.Tensor("float32", (MAX_ELEMENTS,), name="y", scope=tik.scope_gm)
        self.tiling = tik_instance.Tensor("int32", (TILING_ARGS,), name="tiling",
                                          scope=tik.scope_gm)

    def compute(self):
        tik_instance = self.tik_instance
        tiling_ub = tik_instance.Tensor("int32", (TILING_ARGS,), name="tiling_ub",
                                        scope=tik.scope_ubuf)
        tik_instance.data_move(tiling_ub, self.tiling, 0, 1, 1, 0, 0)
        per_core = tik_instance.Scalar("int32", name="per_core")
        per_core.set_as(tiling_ub[1])
        tiles = tik_instance.Scalar("int32", name="tiles")
        tiles.set_as(tiling_ub[2])
        scale = tik_instance.Scalar("float32", name="scale")
        scale_bits = tik_instance.Tensor("float32", (8,), name="scale_bits", scope=tik.scope_ubuf)
        tik_instance.data_move(scale_bits, self.x, 0, 1, 1, 0, 0)
        scale.set_as(scale_bits[0])  # the first element of x is the scale
        bias = tik_instance.Tensor("float32", (40,), name="bias", scope=tik.scope_ubuf)
        step = tik_instance.Scalar("float32", name="step", init_value=0.25)
        value = tik_instance.Scalar("float32", name="value", init_value=-1.0)
        with tik_instance.for_range(0, 40) as k:  # bias[k] = -1 + 0.25 k, a float Scalar carried
            bias[k].set_as(value)
            value.set_as(value + step)
        with tik_instance.for_range(0, CORE_NUM, block_num=CORE_NUM) as core:
            x_ub = tik_instance.Tensor("float32", (TILE,), name="x_ub", scope=tik.scope_ubuf)
            with tik_instance.for_range(0, tiles) as t:
                base = core * per_core + t * TILE
                tik_instance.data_move(x_ub, self.x[base], 0, 1, TILE // 8, 0, 0)
                tik_instance.vec_muls(64, x_ub, x_ub, scale, TILE // 64, 8, 8)
                with tik_instance.for_range(0, TILE) as j:
                    elem = tik_instance.Scalar("float32", name="elem")
                    elem.set_as(x_ub[j])
                    idx = base + j
                    b = tik_instance.Scalar("float32", name="b")
                    b.set_as(bias[idx - idx // 40 * 40])
                    x_ub[j].set_as(elem + b)
                tik_instance.data_move(self.y[base], x_ub, 0, 1, TILE // 8, 0, 0)
        tik_instance.BuildCCE(kernel_name=self.kernel_name, inputs=[self.x], outputs=[self.y],
                              flowtable=[self.tiling], config={"enable_const_fold": True})
        return tik_instance


@para_check.check_op_params(para_check.REQUIRED_INPUT, para_check.REQUIRED_OUTPUT,
                            para_check.KERNEL_NAME)
def scaled_bias(x, y, kernel_name="scaled_bias"):
    para_check.check_dtype(x.get("dtype"), ("float32",), param_name="x")
    return ScaledBias(kernel_name).compute()


def tiling_for(n):
    per_core = n // CORE_NUM
    return np.array([n, per_core, per_core // TILE, 0, 0, 0, 0, 0], np.int32)


def expected(x):
    i = np.arange(x.size)
    bias = (np.float32(-1) + np.float32(0.25) * (i % 40)).astype(np.float32)
    return (x * x[0]).astype(np.float32) + bias


tik_instance = scaled_bias({"shape": (-1,), "dtype": "float32"},
                           {"shape": (-1,), "dtype": "float32"})

if __name__ == "__main__":
    n = CORE_NUM * TILE * 2
    x = np.random.default_rng(7).standard_normal(n).astype(np.float32)
    y, = tik_instance.tikdb.start_debug({"x": x, "tiling": tiling_for(n)}, interactive=False)
    assert y.tobytes() == expected(x).tobytes(), "mismatch"
    print(f"{n} elements on {CORE_NUM} cores: bit-exact")
