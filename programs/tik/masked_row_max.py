"""A masked row-max in TIK: for each of ROWS rows of 64 floats, the largest x where x > y and its
column — vec_cmpv_gt into a bit mask, vec_sel mode 1 (x, else -inf), vcmax (value and index a
row, the index's raw bits in a float's slot).

    pipev run programs/tik/masked_row_max.py --input x_gm=x.npy --input y_gm=y.npy
"""
from tbe import tik

COLS, ROWS = 64, 8
TOTAL = COLS * ROWS


def masked_row_max_kernel():
    tik_instance = tik.Tik()
    x_gm = tik_instance.Tensor("float32", (TOTAL,), name="x_gm", scope=tik.scope_gm)
    y_gm = tik_instance.Tensor("float32", (TOTAL,), name="y_gm", scope=tik.scope_gm)
    out_gm = tik_instance.Tensor("float32", (2 * ROWS,), name="out_gm", scope=tik.scope_gm)
    x = tik_instance.Tensor("float32", (TOTAL,), name="x", scope=tik.scope_ubuf)
    y = tik_instance.Tensor("float32", (TOTAL,), name="y", scope=tik.scope_ubuf)
    gt = tik_instance.Tensor("uint32", (TOTAL // 32,), name="gt", scope=tik.scope_ubuf)
    kept = tik_instance.Tensor("float32", (TOTAL,), name="kept", scope=tik.scope_ubuf)
    out = tik_instance.Tensor("float32", (2 * ROWS,), name="out", scope=tik.scope_ubuf)
    tik_instance.data_move(x, x_gm, 0, 1, TOTAL * 4 // 32, 0, 0)
    tik_instance.data_move(y, y_gm, 0, 1, TOTAL * 4 // 32, 0, 0)
    tik_instance.vec_cmpv_gt(gt, x, y, ROWS, 8, 8)
    tik_instance.vec_sel(COLS, 1, kept, gt, x, float("-inf"), ROWS, 8, 8, 8)
    tik_instance.vcmax(COLS, out, kept, ROWS, 1, 1, 8)  # dst_rep 1: a (value, index) pair a row
    tik_instance.data_move(out_gm, out, 0, 1, 2 * ROWS * 4 // 32, 0, 0)
    tik_instance.BuildCCE(kernel_name="masked_row_max", inputs=[x_gm, y_gm], outputs=[out_gm])
    return tik_instance


if __name__ == "__main__":
    masked_row_max_kernel()
