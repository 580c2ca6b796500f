"""A TIK kernel on four cores: for_range(0, 4, block_num=4) launches them, and core b fills its
quarter of z_gm with b + 1 (a vec_dup into UB, then a data_move out). docs/debugger.md debugs it:

    pipev debug programs/tik/blocks.py --batch --ex 'core 2' --ex 'print $block_idx'
"""
from tbe import tik

N = 1024
CORES = 4
PER = N // CORES


def blocks_kernel():
    tik_instance = tik.Tik()
    z_gm = tik_instance.Tensor("float16", (N,), name="z_gm", scope=tik.scope_gm)
    with tik_instance.for_range(0, CORES, block_num=CORES) as b:
        z_ub = tik_instance.Tensor("float16", (PER,), name="z_ub", scope=tik.scope_ubuf)
        tik_instance.vec_dup(128, z_ub, 0.0, PER // 128, 8)
        tik_instance.vec_adds(128, z_ub, z_ub, 1.0, PER // 128, 8, 8)
        with tik_instance.for_range(0, b) as _:
            tik_instance.vec_adds(128, z_ub, z_ub, 1.0, PER // 128, 8, 8)
        tik_instance.data_move(z_gm[b * PER], z_ub, 0, 1, PER * 2 // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="blocks", inputs=[], outputs=[z_gm])
    return tik_instance


if __name__ == "__main__":
    blocks_kernel()
