"""Write programs/expected/<program>/<output>.npy for the vendor example programs.

Every expected output is computed here with plain numpy from what the example means (np.where on
the selection bits, the MASK filter, the repeat strides), independently of the simulator. Where
the vendor page prints the output, the computation is also checked against the printed values.

    python programs/make_expected.py          # (re)write the files
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"
sys.path.insert(0, str(HERE))

import vendor_data as V  # noqa: E402

F16, F32, U8, U16 = np.float16, np.float32, np.uint8, np.uint16
Outputs = dict[str, np.ndarray]


def bits(data, n: int) -> np.ndarray:
    """The first n bits of a bit mask in memory, LSB first (bit k % 8 of byte k // 8)."""
    raw = np.ascontiguousarray(data).view(U8)
    return np.unpackbits(raw, bitorder="little")[:n].astype(bool)


def packed(bool_bits: np.ndarray, nbytes: int) -> np.ndarray:
    """Bits → LSB-first bytes, zero-padded to nbytes."""
    out = np.zeros(nbytes, U8)
    b = np.packbits(bool_bits, bitorder="little")
    out[:b.size] = b
    return out


# -- AscendC Select (reference 000): f32, dataSize 256, 64 elements per repeat ------------------
def _src0() -> np.ndarray:
    return np.asarray(V.ASCENDC_SRC0, F32)


def _src1() -> np.ndarray:
    return np.asarray(V.ASCENDC_SRC1, F32)


def ascendc_mode2() -> Outputs:
    # sel consumed contiguously: element k uses bit k, whatever the form
    sel = bits(np.asarray(V.ASCENDC_SEL, U8), 256)
    return {"dst_gm": np.where(sel, _src0(), _src1())}


def ascendc_mode1() -> Outputs:
    sel = bits(np.asarray(V.ASCENDC_SEL, U8), 256)
    return {"dst_gm": np.where(sel, _src0(), F32(0))}


def ascendc_mode0() -> Outputs:
    # only the first 64 bits (one f32 repeat) are valid; every repeat uses them again
    sel = bits(np.asarray(V.ASCENDC_SEL_MODE0, U8), 64)
    return {"dst_gm": np.where(np.tile(sel, 4), _src0(), _src1())}


def description(t) -> Outputs:
    """The pages' function description: select by sel, then keep dst where mask is 0."""
    temp = np.where(np.asarray(V.DESCRIPTION_SEL, bool), np.asarray(V.DESCRIPTION_SRC0, t),
                    np.asarray(V.DESCRIPTION_SRC1, t))
    assert temp.tolist() == V.DESCRIPTION_DST_TEMP
    before = np.asarray(V.DESCRIPTION_DST_BEFORE, t)
    return {"dst_gm": np.where(np.asarray(V.DESCRIPTION_MASK, bool), temp, before)}


# -- TIK vec_sel (reference 002): f16, 128 elements per repeat ----------------------------------
def tik_mode0() -> Outputs:
    src0, src1 = np.asarray(V.TIK_MODE0_SRC0, F16), np.asarray(V.TIK_MODE0_SRC1, F16)
    is_le = src0 <= src1  # vec_cmpv_le over 2 repeats: 256 bits
    cmpmask = is_le[:128]  # mode 0: the first 128 bits, every repeat
    return {"dst_gm": np.where(np.tile(cmpmask, 2), src0, src1)}


def tik_mode1() -> Outputs:
    sel = bits(np.asarray(V.TIK_MODE1_SEL, U16), 128)
    return {"dst_gm": np.where(sel, np.asarray(V.TIK_MODE1_SRC0, F16), F16(5.2))}


def tik_mode2() -> Outputs:
    sel = bits(np.asarray(V.TIK_MODE2_SEL, U16), 128)
    return {"dst_gm": np.where(sel, np.asarray(V.TIK_MODE2_SRC0, F16),
                               np.asarray(V.TIK_MODE2_SRC1, F16))}


def tik_example2() -> Outputs:
    src0, src1 = np.asarray(V.TIK_EXAMPLE2_SRC0, F16), np.asarray(V.TIK_EXAMPLE2_SRC1, F16)
    per_block, mask, repeats = 16, 48, 2
    dst_rep, src0_rep, src1_rep = 6, 4, 4  # repeat strides in 32-byte blocks
    is_le = src0 <= src1  # vec_cmpv_le, one repeat: 128 bits
    dst = np.zeros(192, F16)  # vec_dup(64, dst, 0, 3, 4) clears all 192 values
    k = np.arange(mask)  # block stride 1: element k of a repeat is at offset k
    for i in range(repeats):
        a = src0[i * src0_rep * per_block + k]
        b = src1[i * src1_rep * per_block + k]
        dst[i * dst_rep * per_block + k] = np.where(is_le[k], a, b)
    return {"dst_gm": dst}


# -- C-API asc_ne (reference 003): f16, 128 elements, one repeat ---------------------------------
def asc_ne_inputs() -> tuple[np.ndarray, np.ndarray]:
    """The inputs of the asc_ne programs (the page gives none): equal and different values,
    +0 against -0 at 64 (equal), NaN against NaN at 100 and NaN against a number at 101."""
    src0 = (np.arange(128) * 0.25 - 16).astype(F16)
    src1 = src0.copy()
    src1[::3] += F16(1)
    src1[64] = -0.0
    src0[100] = src1[100] = np.nan
    src0[101] = np.nan
    return src0, src1


def asc_ne() -> Outputs:
    src0, src1 = asc_ne_inputs()
    return {"dst_gm": packed(src0 != src1, 32)}  # 16 result bytes in one zeroed 32-byte block


def asc_ne_residue() -> Outputs:
    src0, src1 = asc_ne_inputs()
    before = bits(np.full(16, 0xAA, U8), 128)  # asc_set_cmp_mask: CMPMASK = 0xAA bytes
    active = np.arange(128) < 64  # MASK: elements 0..63
    return {"dst_gm": packed(np.where(active, src0 != src1, before), 32)}


PROGRAMS: dict[str, Callable[[], Outputs]] = {
    "ascendc_select_mode2_highdim": ascendc_mode2,
    "ascendc_select_mode2_count": ascendc_mode2,
    "ascendc_select_mode1_count": ascendc_mode1,
    "ascendc_select_mode1_highdim": ascendc_mode1,
    "ascendc_select_mode0_count": ascendc_mode0,
    "ascendc_select_mode0_highdim": ascendc_mode0,
    "ascendc_select_mode0_bitwise": ascendc_mode0,
    "ascendc_select_mode0_nomask": ascendc_mode0,
    "ascendc_select_mask_filter": lambda: description(F32),
    "tik_vec_sel_mode0": tik_mode0,
    "tik_vec_sel_mode1": tik_mode1,
    "tik_vec_sel_mode2": tik_mode2,
    "tik_vec_sel_example2": tik_example2,
    "tik_vec_sel_mask_filter": lambda: description(F32),
    "asc_ne_ub": asc_ne,
    "asc_ne_cmpmask": asc_ne,
    "asc_ne_cmpmask_residue": asc_ne_residue,
}

# The vendor inputs each program's GM defaults hold: program → GM tensor → (values, dtype).
_ASC2 = {"src0_gm": (V.ASCENDC_SRC0, F32), "src1_gm": (V.ASCENDC_SRC1, F32),
         "sel_gm": (V.ASCENDC_SEL, U8)}
_ASC1 = {"src0_gm": (V.ASCENDC_SRC0, F32), "sel_gm": (V.ASCENDC_SEL, U8)}
_ASC0 = {"src0_gm": (V.ASCENDC_SRC0, F32), "src1_gm": (V.ASCENDC_SRC1, F32),
         "sel_gm": (V.ASCENDC_SEL_MODE0, U8)}
_DESC = {"src0_gm": (V.DESCRIPTION_SRC0, F32), "src1_gm": (V.DESCRIPTION_SRC1, F32),
         "dst_gm": (V.DESCRIPTION_DST_BEFORE, F32)}
INPUTS: dict[str, dict[str, tuple[list, type]]] = {
    "ascendc_select_mode2_highdim": _ASC2, "ascendc_select_mode2_count": _ASC2,
    "ascendc_select_mode1_count": _ASC1, "ascendc_select_mode1_highdim": _ASC1,
    "ascendc_select_mode0_count": _ASC0, "ascendc_select_mode0_highdim": _ASC0,
    "ascendc_select_mode0_bitwise": _ASC0, "ascendc_select_mode0_nomask": _ASC0,
    "ascendc_select_mask_filter": _DESC, "tik_vec_sel_mask_filter": _DESC,
    "tik_vec_sel_mode0": {"src0_gm": (V.TIK_MODE0_SRC0, F16), "src1_gm": (V.TIK_MODE0_SRC1, F16)},
    "tik_vec_sel_mode1": {"src0_gm": (V.TIK_MODE1_SRC0, F16), "sel_gm": (V.TIK_MODE1_SEL, U16)},
    "tik_vec_sel_mode2": {"src0_gm": (V.TIK_MODE2_SRC0, F16), "src1_gm": (V.TIK_MODE2_SRC1, F16),
                          "sel_gm": (V.TIK_MODE2_SEL, U16)},
    "tik_vec_sel_example2": {"src0_gm": (V.TIK_EXAMPLE2_SRC0, F16),
                             "src1_gm": (V.TIK_EXAMPLE2_SRC1, F16)},
}

# The outputs the vendor pages print: program → output → (values, dtype).
PRINTED: dict[str, dict[str, tuple[list, type]]] = {
    "ascendc_select_mode2_highdim": {"dst_gm": (V.ASCENDC_DST_MODE2, F32)},
    "ascendc_select_mode2_count": {"dst_gm": (V.ASCENDC_DST_MODE2, F32)},
    "ascendc_select_mode1_count": {"dst_gm": (V.ASCENDC_DST_MODE1, F32)},
    "ascendc_select_mode1_highdim": {"dst_gm": (V.ASCENDC_DST_MODE1, F32)},
    "ascendc_select_mode0_count": {"dst_gm": (V.ASCENDC_DST_MODE0, F32)},
    "ascendc_select_mode0_highdim": {"dst_gm": (V.ASCENDC_DST_MODE0, F32)},
    "ascendc_select_mode0_bitwise": {"dst_gm": (V.ASCENDC_DST_MODE0, F32)},
    "ascendc_select_mode0_nomask": {"dst_gm": (V.ASCENDC_DST_MODE0, F32)},
    "ascendc_select_mask_filter": {"dst_gm": (V.DESCRIPTION_DST, F32)},
    "tik_vec_sel_mode0": {"dst_gm": (V.TIK_MODE0_DST, F16)},
    "tik_vec_sel_mode1": {"dst_gm": (V.TIK_MODE1_DST, F16)},
    "tik_vec_sel_mode2": {"dst_gm": (V.TIK_MODE2_DST, F16)},
    "tik_vec_sel_example2": {"dst_gm": (V.TIK_EXAMPLE2_DST, F16)},
    "tik_vec_sel_mask_filter": {"dst_gm": (V.DESCRIPTION_DST, F32)},
}


def printed(program: str) -> dict[str, np.ndarray]:
    """The vendor's printed outputs of a program as arrays (empty when the page prints none)."""
    return {name: np.asarray(values, t) for name, (values, t) in PRINTED.get(program, {}).items()}


def main() -> None:
    for program, compute in PROGRAMS.items():
        outputs = compute()
        for name, want in printed(program).items():
            if outputs[name].tobytes() != want.tobytes():
                raise SystemExit(f"{program}: {name} disagrees with the vendor's printed output")
        folder = EXPECTED / program
        folder.mkdir(parents=True, exist_ok=True)
        for name, arr in outputs.items():
            np.save(folder / f"{name}.npy", arr, allow_pickle=False)


if __name__ == "__main__":
    main()
