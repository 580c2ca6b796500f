"""A tiled TIK kernel: z = maximum(x, y) over N halves, two tiles per iteration of one
for_range loop (ping and pong buffers, so loading one tile overlaps computing the other), with
Scalar offsets into GM. Each tile: vec_cmpv_gt into a bit mask, vec_sel mode 2 by it.

    pipev run programs/tik/tiled_maximum.py --input x_gm=x.npy --input y_gm=y.npy
    pipev asm programs/tik/tiled_maximum.py        # one loop, not an unrolled copy
"""
from tbe import tik

N = 8192
TILE = 1024  # halves per tile: 8 repeats of 128
BLOCKS = TILE * 2 // 32


def maximum_kernel(n=N):
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float16", (n,), name="x_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("float16", (n,), name="y_gm", scope=tik.scope_gm)
    z_gm = tik_instance.Tensor("float16", (n,), name="z_gm", scope=tik.scope_gm)
    buffers = []
    for side in ("ping", "pong"):
        buffers.append([
            tik_instance.Tensor("float16", (TILE,), name=f"x_{side}", scope=tik.scope_ubuf),
            tik_instance.Tensor("float16", (TILE,), name=f"y_{side}", scope=tik.scope_ubuf),
            tik_instance.Tensor("uint16", (TILE // 16,), name=f"gt_{side}",
                                scope=tik.scope_ubuf),
            tik_instance.Tensor("float16", (TILE,), name=f"z_{side}", scope=tik.scope_ubuf)])
    offset = tik_instance.Scalar("int32", name="offset", init_value=0)
    with tik_instance.for_range(0, n // (2 * TILE), name="i") as i:
        for k, (x, y, _, _) in enumerate(buffers):
            offset.set_as((2 * i + k) * TILE)
            tik_instance.data_move(x, x_gm[offset], 0, 1, BLOCKS, 0, 0)
            tik_instance.data_move(y, y_gm[offset], 0, 1, BLOCKS, 0, 0)
        for k, (x, y, gt, z) in enumerate(buffers):
            offset.set_as((2 * i + k) * TILE)
            tik_instance.vec_cmpv_gt(gt, x, y, TILE // 128, 8, 8)
            tik_instance.vec_sel(128, 2, z, gt, x, y, TILE // 128, 8, 8, 8)
            tik_instance.data_move(z_gm[offset], z, 0, 1, BLOCKS, 0, 0)
    tik_instance.BuildCCE(kernel_name="tiled_maximum", inputs=[x_gm, y_gm], outputs=[z_gm])
    return tik_instance


if __name__ == "__main__":
    maximum_kernel()
