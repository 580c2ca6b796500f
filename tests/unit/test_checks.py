"""The checks of ISA.md §9 through the real command line: one failing program per rule and per
message (exit status, LINE:COL, key words), and a passing program at each rule's boundary."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from tests.support import diagnostic_lines

DIAG = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): "
                  r"(?P<msg>\S.*)$")

# x 0x0, y 0x400, z 0x800, m 0xc00, h 0xc40, big 0xe40 (f32[2048], 8 KB)
HEADER = """.chip {chip}
.gm  a    f32[256] input = zeros
.gm  o    f32[256] output
.ub  x    f32[256] = zeros
.ub  y    f32[256] = zeros
.ub  z    f32[256] = zeros
.ub  m    u8[64]   = zeros
.ub  h    f16[256] = zeros
.ub  big  f32[2048] = zeros
"""
HEADER_LINES = HEADER.count("\n")
MODE2 = "set_vector_mask 0, 0xff\nvector_dup.u32 @0x2f000, {addr}, repeat=1\n" \
        "set_cmpmask @0x2f000\nset_vector_mask -1, -1\n"  # CMPMASK[31:0] = addr; 4 lines


def run_cli(tmp_path: Path, text: str, *args: str) -> tuple[int, list[str], Path]:
    prog = tmp_path / "k.vasm"
    prog.write_text(text)
    res = CliRunner().invoke(main, ["run", str(prog), "--quiet", "--output-dir",
                                    str(tmp_path / "out"), *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, diagnostic_lines([ln for ln in res.stderr.splitlines() if ln]), prog


def diags(lines: list[str], prog: Path) -> list[re.Match]:
    out = []
    for ln in lines:
        d = DIAG.match(ln)
        assert d is not None, f"not a §9.1 diagnostic: {ln!r}"
        assert d["path"] == str(prog), ln
        out.append(d)
    return out


# (id, chip, body, extra args, exit status, severity, body LINE, COL, key words)
FAILING = [
    # -- syntax, names -------------------------------------------------------------------------
    ("unknown-mnemonic", "vfoo.f32 x, y, z", 1, 1, ["unknown mnemonic", "vfoo"]),
    ("unknown-type", "vadd.f33 x, y, z", 1, 6, ["unknown type", "f33"]),
    ("missing-type", "vadd x, y, z", 1, 1, ["vadd needs a type"]),
    ("bad-modifier", "vadd.f32.x x, y, z", 1, 1, ["unexpected modifier", ".x"]),
    ("missing-compare-op", "vcmpv.f32 m, x, y", 1, 1, ["compare operator"]),
    ("operand-count", "vadd.f32 x, y", 1, 1, ["takes 3 operands, got 2"]),
    ("unknown-key", "vadd.f32 x, y, z, foo=1", 1, 19, ["unknown key", "foo"]),
    ("key-not-applicable", "vadd.f32 x, y, z, mode=1", 1, 19, ["mode", "does not apply",
                                                                "vadd"]),
    ("duplicate-key", "vadd.f32 x, y, z, repeat=1, repeat=2", 1, 29, ["duplicate key",
                                                                      "repeat"]),
    ("positional-after-key", "vadd.f32 x, y, repeat=1, z", 1, 26, ["positional operand",
                                                                    "after keyword"]),
    ("empty-operand", "vadd.f32 x, , z", 1, 13, ["empty operand"]),
    ("unbalanced-bracket", "vadd.f32 x[1, y, z", 1, 11, ["unbalanced"]),
    ("unknown-tensor", "vadd.f32 q, y, z", 1, 10, ["unknown tensor", "'q'"]),
    ("gm-as-ub-operand", "vadd.f32 a, y, z", 1, 10, ["'a' is a GM tensor", "UB operand"]),
    ("register-as-address", "vadd.f32 x1, y, z", 1, 10, ["@x1"]),
    ("index-beyond-tensor", "vadd.f32 x[256], y, z", 1, 12, ["x[256]", "beyond the tensor",
                                                              "256 elements"]),
    ("unknown-label", "jmp nowhere", 1, 5, ["unknown label", "nowhere"]),
    ("label-twice", "l:\nnop\nl:\nnop", 3, 1, ["label 'l' is defined twice"]),
    ("tensor-twice", ".ub x f32[8]", 1, 5, ["tensor 'x' is declared twice"]),
    ("unknown-directive", ".foo 1", 1, 1, ["unknown directive", ".foo"]),
    ("rept-without-endr", ".rept 2\nnop", 1, 1, [".rept without .endr"]),
    ("endr-without-rept", ".endr", 1, 1, [".endr without .rept"]),
    ("unknown-chip", None, "", 0, 7, ["unknown chip", "ascend999"]),
    # -- declarations and INITs ----------------------------------------------------------------
    ("ub-addr-unaligned", ".ub q f32[8] @0x10", 1, 14, ["0x10", "not 32-byte aligned"]),
    ("ub-does-not-fit", ".ub q f32[60000]", 1, 5, ["does not fit in UB"]),
    ("list-count", ".ub q f32[4] = [1, 2]", 1, 16, ["the list has 2 values, the tensor 4"]),
    ("list-unterminated", ".ub q f32[4] = [1, 2,\n3", 1, 16, ["unterminated", "["]),
    ("arange-range", ".ub q u8[300] = arange(0)", 1, 24, ["arange value 299", "u8"]),
    ("bits-length", '.ub q u8[4] = bits("00ff")', 1, 20, ["bits() gives 2 bytes",
                                                            "tensor has 4"]),
    ("file-missing", '.ub q f32[4] = file("nope.npy")', 1, 21, ["nope.npy", "no such file"]),
    ("unknown-init", ".ub q f32[4] = ones", 1, 16, ["unknown INIT", "ones"]),
    ("gm-needs-role", ".gm q f32[4]", 1, 13, ["needs input, output, inout or = INIT"]),
    # -- types, chip support -------------------------------------------------------------------
    ("data-type-size", "vadd.f32 h, y, z", 1, 10, ["vadd.f32", "dst 'h' is f16",
                                                   "4-byte elements"]),
    ("bitmask-type", "vcmpv.lt.f32 x, y, z", 1, 14, ["vcmpv.lt.f32", "dst 'x' is f32",
                                                     "unsigned"]),
    ("type-unsupported", "vadd.u8 m, m, m", 1, 1, ["vadd.u8 is not supported on ascend910b",
                                                   "supports"]),
    ("compare-eq-only", "vcmpv.lt.s32 m, @0x0, @0x400", 1, 1, ["eq only"]),
    ("vsel-mode-chip", "ascend910", "vsel.f32 z, x, y, mode=1", 1, 24,
     ["vsel mode 1 is not supported on ascend910", "supports mode 0 only"]),
    ("counter-mode-chip", "ascend910", "set_mask_count", 1, 1,
     ["counter mode is not supported on ascend910"]),
    ("vcmp-chip", "ascend310b", "vcmp.lt.f32 x, y", 1, 1,
     ["vcmp", "not supported on ascend310b"]),
    ("vsel-8bit-mode0", "ascend310b", "vsel.u8 @0x0, @0x100, @0x200", 1, 1,
     ["8-bit vsel mode 0 needs a 256-bit CMPMASK", "ascend310b has 128"]),
    ("scalar-ref-chip", "select.f32 z, m, scalar(x[0]), y, mode=1, count=64", 1, 18,
     ["scalar(NAME[I]) is not supported on ascend910b"]),
    # -- field ranges --------------------------------------------------------------------------
    ("repeat-range", "vadd.f32 x, y, z, repeat=256", 1, 26, ["repeat=256", "0..255"]),
    ("stride-range", "vadd.f32 x, y, z, stride=1,1,1,8,8,256", 1, 36,
     ["src1_rep=256", "0..255"]),
    ("block-stride-range", "vadd.f32 x, y, z, src0_blk=256", 1, 28, ["src0_blk=256",
                                                                     "0..255"]),
    ("unary-block-stride-range", "vadds.f32 x, y, 1.0, stride=65536,1,8,8", 1, 29,
     ["dst_blk=65536", "0..65535"]),
    ("stride-arity", "vadd.f32 x, y, z, stride=1,1,8,8", 1, 26, ["stride=n,n,n,n,n,n",
                                                                 "got 4 values"]),
    ("mode-range", "vsel.f32 z, x, y, mode=3", 1, 24, ["mode=3", "0..2"]),
    ("dst-block-stride-0", "vadd.f32 x, y, z, dst_blk=0", 1, 27,
     ["vadd.f32 dst block stride 0", "at least 1"]),
    ("nburst-range", "copy_gm_to_ub x, a, nburst=0, burst=1", 1, 28, ["nburst=0",
                                                                      "1..4095"]),
    ("burst-range", "copy_gm_to_ub x, a, burst=65536", 1, 27, ["burst=65536", "1..65535"]),
    ("burst-missing", "copy_gm_to_ub x, a", 1, 1, ["copy_gm_to_ub needs burst="]),
    ("event-id", "set_flag V, MTE3, 8", 1, 19, ["event id 8", "0..7"]),
    ("event-id-910", "ascend910", "set_flag V, MTE3, 4", 1, 19, ["event id 4", "0..3",
                                                                 "ascend910"]),
    ("flag-same-pipe", "set_flag V, V, 0", 1, 13, ["two different pipes"]),
    ("pipe-name", "set_flag V, XX, 0", 1, 13, ["expected a pipe", "XX"]),
    ("imm-64-bit", "li x1, 0x10000000000000000", 1, 8, ["does not fit in 64 bits"]),
    ("select-mask-0", "select.f32 z, m, x, y, repeat=1, mask=0", 1, 39, ["mask=0",
                                                                          "1..64"]),
    ("select-mask-hi-b32", "select.f32 z, m, x, y, repeat=1, mask_lo=1, mask_hi=1", 1, 53,
     ["mask_hi must be 0", "32-bit"]),
    ("select-mask-8bit", "ascend310b", "select.u8 @0x0, m, @0x100, @0x200, mode=2, repeat=1,"
     " mask=100", 1, 59, ["8-bit types take mask=256 only"]),
    ("select-count-range", "select.f32 big, m, big, big, mode=2, count=16321", 1, 44,
     ["count=16321", "0..16320"]),
    ("select-form", "select.f32 z, m, x, y, mode=2", 1, 1, ["exactly one of count= or "
                                                             "repeat="]),
    ("compare-count-multiple", "compare.lt.f32 m, x, y, count=10", 1, 31,
     ["count=10", "not a multiple of 256 bytes"]),
    ("scalar-overflow", "vector_dup.f16 h, 70000", 1, 19, ["70000", "f16"]),
    ("scalar-non-integral", "vadds.s32 @0x0, @0x400, 1.5", 1, 25, ["1.5", "s32"]),
    ("scalar-int-range", "vector_dup.s16 h, 40000", 1, 19, ["40000", "s16"]),
    # -- static alignment ----------------------------------------------------------------------
    ("align-static", "vadd.f32 @0x10, y, z", 1, 10,
     ["vadd.f32 dst address 0x10 is not 32-byte aligned", "vector operands"]),
    ("align-static-src", "vsel.f32 z, x, y[2]", 1, 16,
     ["vsel.f32 src1 address 0x408 is not 32-byte aligned"]),
    ("align-static-mode1-mask", "vsel.f32 z, x, m[8], mode=1", 1, 16,
     ["vsel.f32 src1 address 0xc08 is not 32-byte aligned"]),
    ("align-cmpmask-static", "set_cmpmask @0x8", 1, 13,
     ["set_cmpmask src address 0x8 is not 16-byte aligned", "CMPMASK"]),
    ("align-dma-static", "copy_gm_to_ub @0x10, a, burst=1", 1, 15,
     ["copy_gm_to_ub dst address 0x10 is not 32-byte aligned"]),
    ("rept-iteration", ".rept 2\nvadd.f32 x[{i}*4], y, z\n.endr", 2, 10,
     ["not 32-byte aligned", "(in .rept iteration 1)"]),
    ("rept-column-after-i", ".rept 2\nvadd.f32 x[{i}*0], y[{i}+10], z\n.endr", 2, 20,
     ["src0 address 0x428", "(in .rept iteration 0)"]),
    ("rept-expansion-limit", ".rept 2000\n.rept 2000\nnop\n.endr\n.endr", 1, 1,
     [".rept expands the program beyond"]),
    ("huge-number", "vector_dup.f32 x, 1e99999", 1, 19, ["1e99999"]),
    ("huge-integer-fill", ".ub q f16[4] = fill(" + "9" * 400 + ")", 1, 21,
     ["(400 digits) overflows f16"]),
    ("huge-random-bounds", ".ub q f32[4] = random(1, -1e308, 1e308)", 1, 26,
     ["random() bounds must be finite"]),
    ("huge-token", "vadd.f32 " + "x" * 5000 + ", y, z", 1, 10,
     ["unknown tensor", "characters)"]),
    # -- run time: bounds and footprint (§9.2) ---------------------------------------------------
    ("bounds-vector", "vadd.f32 @0x2ff00, y, z, repeat=2", 1, 10,
     ["vadd.f32 dst touches byte 0x30000 outside UB (196608 bytes)", "(repeat 1, block 0)"]),
    ("bounds-vector-src", "vadd.f32 z, @0x2fe00, y, repeat=3", 1, 13,
     ["src0 touches byte 0x30000 outside UB", "(repeat 2, block 0)"]),
    ("bounds-register", "li x1, -32\nvadd.f32 @x1, y, z", 2, 10,
     ["dst touches byte -0x20 outside UB", "(repeat 0, block 0)"]),
    ("bounds-bits", "vcmpv.lt.f32 @0x2ffe0, big, big, repeat=5", 1, 14,
     ["dst touches byte 0x30000 outside UB", "(repeat 4, block 0)"]),
    ("bounds-dma-gm", "copy_gm_to_ub big, a, nburst=1, burst=33", 1, 20,
     ["src touches byte 0x400 outside GM tensor a (1024 bytes)", "(burst 0, block 32)"]),
    ("bounds-dma-gm-burst", "copy_gm_to_ub big, a, nburst=3, burst=8, src_gap=8", 1, 20,
     ["outside GM tensor a", "(burst 2, block 0)"]),
    ("bounds-dma-ub", "copy_gm_to_ub @0x2ffe0, a, nburst=1, burst=2", 1, 15,
     ["dst touches byte 0x30000 outside UB", "(burst 0, block 1)"]),
    ("bounds-cmpmask", "li x1, 0x30000\nget_cmpmask @x1", 2, 13,
     ["get_cmpmask", "outside UB"]),
    ("bounds-mode2-mask", MODE2.format(addr="0x2ffe0") + "vsel.f32 big, big, big, mode=2, repeat=5",
     5, 1, ["select mask (address from CMPMASK) touches byte 0x30000 outside UB",
            "(repeat 4, block 0)"]),
    ("footprint-dst", "vadd.f32 x, y, big, repeat=5", 1, 10,
     ["vadd.f32 dst x needs 1280 bytes, tensor has 1024", "(repeat 4, block 0)"]),
    ("footprint-src", "vadd.f32 big, y, big, repeat=8", 1, 15,
     ["src0 y needs 2048 bytes, tensor has 1024", "(repeat 4, block 0)"]),
    ("footprint-strided", "vadd.f32 big, x, big, repeat=2, src0_rep=32", 1, 15,
     ["src0 x needs 1280 bytes", "(repeat 1, block 0)"]),
    ("footprint-mask-bits", "vsel.f32 big, big, m, mode=1, repeat=9", 1, 20,
     ["select mask m needs 72 bytes, tensor has 64", "(repeat 8, block 0)"]),
    ("footprint-vcmpv", "vcmpv.lt.f32 m, big, big, repeat=9", 1, 14,
     ["dst m needs 72 bytes, tensor has 64", "(repeat 8, block 0)"]),
    ("footprint-index", "vadd.f32 x[192], y, z, repeat=2", 1, 10,
     ["dst x needs 1280 bytes, tensor has 1024", "(repeat 1, block 0)"]),
    ("footprint-dma", "copy_gm_to_ub m, a, nburst=1, burst=4", 1, 15,
     ["copy_gm_to_ub dst m needs 128 bytes, tensor has 64"]),
    ("footprint-cmpmask", ".ub k u8[8] = zeros\nget_cmpmask k", 2, 13,
     ["get_cmpmask dst k needs 16 bytes, tensor has 8"]),
    # -- run time: alignment -------------------------------------------------------------------
    ("align-register", "li x1, 16\nvadd.f32 @x1, y, z", 2, 10,
     ["vadd.f32 dst address 0x10", "not 32-byte aligned"]),
    ("align-register-index", "li x1, 2\nvadd.f32 z, x[x1], y", 2, 13,
     ["vadd.f32 src0 x address 0x8", "not 32-byte aligned", "x1 = 2"]),
    ("align-register-mode1-mask", "li x1, 0xc08\nvsel.f32 z, x, @x1, mode=1", 2, 16,
     ["vsel.f32 select mask address 0xc08", "not 32-byte aligned", "vsel mask addresses"]),
    ("align-mode2-mask", MODE2.format(addr="0xc10") + "vsel.f32 z, x, y, mode=2", 5, 1,
     ["select mask (address from CMPMASK) address 0xc10 is not 32-byte aligned"]),
    ("align-cmpmask-register", "li x1, 8\nset_cmpmask @x1", 2, 13,
     ["set_cmpmask src address 0x8", "not 16-byte aligned"]),
    ("align-dma-register", "li x1, 16\ncopy_ub_to_gm o, @x1, burst=1", 2, 18,
     ["copy_ub_to_gm src address 0x10", "not 32-byte aligned"]),
    # -- run time: overlap (§9.3) ----------------------------------------------------------------
    ("overlap-partial", "vadd.f32 big[8], big, big[512]", 1, 18,
     ["dst big and src0 big overlap partially in repeat 0", "first at byte 0xe60",
      "100%", "(repeat 0, block 1)"]),
    ("overlap-partial-src1", "vadd.f32 big, big[1024], big[56]", 1, 26,
     ["dst big and src1 big overlap partially in repeat 0", "first at byte 0xf20"]),
    ("overlap-block-stride", "vadd.f32 big, big, y, repeat=2, dst_blk=2, src0_blk=1", 1, 15,
     ["overlap partially in repeat 0", "first at byte 0xe40"]),
    ("overlap-dependency", "vadd.f32 big[64], big, big[1024], repeat=2", 1, 19,
     ["dst big and src0 big overlap across repeats", "repeat 1 reads byte 0xf40",
      "which repeat 0 wrote", "(repeat 1, block 0)"]),
    ("overlap-dependency-rep0", "vadd.f32 x, x, y, repeat=4, dst_rep=0, src0_rep=0", 1, 13,
     ["dst x and src0 x overlap across repeats", "repeat 1 reads byte 0x0",
      "which repeat 0 wrote"]),
    ("overlap-later-repeat", "vadd.f32 x, y, x, repeat=2, dst_rep=4", 1, 16,
     ["dst x and src1 x overlap partially in repeat 1", "first at byte 0x100"]),
    ("overlap-mode1-mask", "vsel.f32 @0xc00, x, @0xc00, mode=1", 1, 21,
     ["dst and select mask overlap partially in repeat 0", "byte 0xc00"]),
    ("overlap-mode1-mask-dep", "vsel.f32 @0x4020, big, @0x4000, mode=1, repeat=5", 1, 24,
     ["dst and select mask overlap across repeats", "repeat 4 reads byte 0x4020",
      "which repeat 0 wrote", "(repeat 4, block 0)"]),
    ("overlap-mode2-mask", MODE2.format(addr="0x900") + "vsel.f32 z, x, y, mode=2, repeat=3",
     5, 10, ["dst z and select mask (address from CMPMASK) overlap partially in repeat 1",
             "first at byte 0x908"]),
    ("overlap-vcmpv", "vcmpv.lt.f32 @0x20, x, y, repeat=2", 1, 21,
     ["dst and src0 x overlap partially in repeat 0", "first at byte 0x20"]),
    # -- run time: masks, counter mode, registers -----------------------------------------------
    ("mask-8bit-partial", "ascend310b", "set_vector_mask 0, 1\nvsel.u8 @0x0, @0x100, m, "
     "mode=1", 2, 1, ["8-bit instruction in normal mode needs MASK all ones", "counter mode"]),
    ("counter-repeats", "set_mask_count\nset_vector_mask 0, 70000\nvadd.f32 big, big, big",
     3, 1, ["counter mode count 70000 needs 1094 repeats", "at most 255"]),
    ("mask-zero-910", "ascend910", "set_vector_mask 0, 0\nvadd.f32 z, x, y", 2, 1,
     ["MASK = 0 does nothing", "an error on ascend910"]),
    ("register-field-range", "li x1, 300\nvadd.f32 x, y, z, repeat=x1", 2, 26,
     ["repeat=300 is out of range (0..255)", "x1 = 300"]),
    ("set-mask-8bit", "ascend310b", "set_mask.u8 100", 1, 13, ["8-bit types take LEN=256"]),
    # -- synchronisation -----------------------------------------------------------------------
    ("deadlock-next-set", "wait_flag V, MTE3, 0\nnop\nset_flag V, MTE3, 0", 1, 1,
     ["deadlock", "wait_flag V, MTE3, 0", "next set_flag of it is at line 12"]),
    ("deadlock-none", "set_flag V, MTE3, 1\nwait_flag V, MTE3, 0", 2, 1,
     ["deadlock", "no set_flag of it follows"]),
    ("deadlock-consumed", "set_flag V, MTE3, 0\nwait_flag V, MTE3, 0\nwait_flag V, MTE3, 0",
     3, 1, ["deadlock", "no earlier unconsumed set_flag"]),
    ("max-steps", "l:\njmp l", ["--max-steps", "50"], 2, 1, ["--max-steps 50 reached"]),
]

# rows with run-time rules that --checks turns into warnings (exit 0) or silences
CHECKS_RULES = ["align-register", "align-register-mode1-mask", "align-mode2-mask",
                "align-cmpmask-register", "align-dma-register", "footprint-dst",
                "footprint-mask-bits", "footprint-dma", "footprint-cmpmask", "overlap-partial",
                "overlap-dependency", "overlap-mode1-mask", "overlap-mode2-mask",
                "overlap-vcmpv"]
STATIC_CHECKS_RULES = ["align-static", "align-static-mode1-mask", "align-cmpmask-static",
                       "align-dma-static", "dst-block-stride-0"]

WARNINGS = [
    ("warn-init", "vadd.f32 x, y, @0x8000", 1, 16,
     ["vadd.f32 src1 reads byte 0x8000, which was never written", "uninitialised"]),
    ("warn-init-partial", ".ub q f32[64]\nset_vector_mask 0, 0xff\nvector_dup.f32 q, 1.0\n"
     "set_vector_mask -1, -1\nvadds.f32 x, q, 1.0", 5, 14,
     ["src q reads byte 0x2e60, which was never written"]),
    ("warn-init-dma", "copy_ub_to_gm o, @0x8000, burst=1", 1, 18,
     ["copy_ub_to_gm src reads byte 0x8000, which was never written"]),
    ("warn-init-cmpmask", "set_cmpmask @0x8000", 1, 13,
     ["set_cmpmask src reads byte 0x8000, which was never written"]),
    ("warn-race-raw", "copy_gm_to_ub x, a, burst=32\nvadd.f32 z, x, y", 2, 13,
     ["race: vadd.f32 on V reads src0 x byte 0x0",
      "copy_gm_to_ub on MTE2 at line 10 wrote", "read-after-write"]),
    ("warn-race-war", "vadd.f32 z, x, y\ncopy_gm_to_ub y, a, burst=32", 2, 15,
     ["race: copy_gm_to_ub on MTE2 writes dst y byte 0x400",
      "vadd.f32 on V at line 10 read", "write-after-read"]),
    ("warn-race-waw", "vadd.f32 z, x, y\ncopy_gm_to_ub z, a, burst=32", 2, 15,
     ["race: copy_gm_to_ub on MTE2 writes dst z byte 0x800", "at line 10 wrote",
      "write-after-write"]),
    ("warn-race-wrong-flag", "copy_gm_to_ub x, a, burst=32\nset_flag MTE2, V, 0\n"
     "wait_flag MTE2, V, 0\ncopy_gm_to_ub y, a, burst=32\nvadd.f32 z, x, y", 5, 16,
     ["race: vadd.f32 on V reads src1 y", "at line 13 wrote"]),
    ("warn-flag-already-set", "set_flag V, MTE3, 0\nset_flag V, MTE3, 0\n"
     "wait_flag V, MTE3, 0", 2, 1, ["flag V->MTE3 id 0 is already set"]),
    ("warn-flag-left-set", "set_flag V, MTE3, 0", 1, 1,
     ["flag V->MTE3 id 0 is still set when the program ends"]),
    ("warn-repeat-0", "vadd.f32 z, x, y, repeat=0", 1, 26, ["repeat=0 does nothing"]),
    ("warn-count-0", "select.f32 z, m, x, y, mode=2, count=0", 1, 38,
     ["select with count=0 does nothing"]),
    ("warn-mask-0", "set_vector_mask 0, 0\nvadd.f32 z, x, y", 2, 1, ["MASK = 0 does nothing"]),
    ("warn-counter-0", "set_mask_count\nset_vector_mask 0, 0\nvadd.f32 z, x, y", 3, 1,
     ["counter mode with count 0 does nothing"]),
    ("warn-scratch", ".ub q f32[8] @0x2e000 = zeros", 1, 14, ["scratch area"]),
]

# boundary programs that must pass cleanly: no diagnostic at all
PASSING = [
    ("exactly-aligned", "vadd.f32 @0x20, y[8], z[16]"),
    ("exactly-aligned-cmpmask", "set_cmpmask m[48]\nget_cmpmask m[16]"),
    ("exactly-100-percent", "vadd.f32 x, x, y, repeat=4"),
    ("exactly-100-percent-src1", "vmax.f32 big, y, big, repeat=4, src0_rep=0"),
    ("same-bytes-other-block-stride", "set_vector_mask 0, 0xff\n"
     "vadd.f32 big, big, y, repeat=2, dst_blk=2, src0_blk=1"),
    ("adjacent-no-overlap", "vadd.f32 big[64], big, big[1024]"),
    ("dst-rewritten-each-repeat", "vadd.f32 x, x, y, repeat=4, dst_rep=0"),
    ("footprint-fills-tensor", "vadd.f32 big, big, big, repeat=32"),
    ("footprint-fills-from-index", "vadd.f32 x[192], y, z"),
    ("footprint-mask-exact", "set_cmpmask m\nvsel.f32 big, big, m, mode=1, repeat=8"),
    ("footprint-vcmpv-exact", "vcmpv.lt.f32 m, big, big, repeat=8"),
    ("footprint-masked-tail", ".ub q f32[8] = zeros\nset_vector_mask 0, 0xff\n"
     "vadds.f32 q, q, 1.0"),
    ("footprint-counter-tail", ".ub q f32[70] = zeros\nset_mask_count\nset_vector_mask 0, 70\n"
     "vadds.f32 q, q, 1.0\nset_mask_norm\nset_vector_mask -1, -1"),
    ("counter-255-repeats", ".ub w f32[16320] = zeros\nset_mask_count\n"
     "set_vector_mask 0, 16320\nvadds.f32 w, w, 1.0\nset_mask_norm\nset_vector_mask -1, -1"),
    ("repeat-255", ".ub w f32[16320] = zeros\nvadds.f32 w, w, 1.0, repeat=255"),
    ("ub-top-byte", "vector_dup.f32 @0x2ff00, 1.0"),
    ("dma-fills-gm", "copy_gm_to_ub x, a, nburst=1, burst=32"),
    ("dma-gaps-fill-gm", "copy_gm_to_ub big, a, nburst=2, burst=8, src_gap=8, dst_gap=8"),
    ("mode2-mask-aligned", MODE2.format(addr="0xc20") + "vsel.f32 z, x, y, mode=2"),
    ("mode1-mask-u8", "set_cmpmask m\nvsel.f32 z, x, m, mode=1, repeat=4"),
    ("reinterpret-same-size", ".ub u u32[64] = zeros\nvadds.f32 u, u, 1.0"),
    ("flags-order-dma", "copy_gm_to_ub x, a, burst=32\nset_flag MTE2, V, 0\n"
     "wait_flag MTE2, V, 0\nvadd.f32 z, x, y\nset_flag V, MTE3, 1\nwait_flag V, MTE3, 1\n"
     "copy_ub_to_gm o, z, burst=32"),
    ("barrier-orders", "copy_gm_to_ub x, a, burst=32\npipe_barrier ALL\nvadd.f32 z, x, y\n"
     "pipe_barrier ALL\ncopy_ub_to_gm o, z, burst=32"),
    ("flag-via-scalar", "copy_gm_to_ub x, a, burst=32\nset_flag MTE2, S, 2\n"
     "wait_flag MTE2, S, 2\nvadd.f32 z, x, y"),
    ("same-pipe-no-race", "copy_gm_to_ub x, a, burst=32\ncopy_gm_to_ub x, a, burst=32"),
    ("8bit-count-mode", "ascend310b", "set_cmpmask m\nset_mask_count\nset_vector_mask 0, 256\n"
     "vsel.u8 @0x0, @0x100, m, mode=1\nset_mask_norm\nset_vector_mask -1, -1"),
]


def _row(row: tuple) -> tuple:
    """Rows may omit the chip (default ascend910b) and the extra arguments."""
    rid, *rest = row
    chip = "ascend910b"
    if len(rest) and (rest[0] is None or rest[0].startswith("ascend")):
        chip, *rest = rest
    if len(rest) > 1 and isinstance(rest[1], list):
        body, args, *rest = rest
    else:
        body, args, rest = rest[0], [], rest[1:]
    return (rid, chip, body, args, *rest)


def _text(chip: str | None, body: str) -> str:
    return HEADER.format(chip=chip or "ascend999") + body + "\n"


def _by_id(rows, rid):
    return next(_row(r) for r in rows if r[0] == rid)


@pytest.mark.parametrize("row", FAILING, ids=[r[0] for r in FAILING])
def test_failing_program(tmp_path, row):
    rid, chip, body, args, line, col, words = _row(row)
    code, lines, prog = run_cli(tmp_path, _text(chip, body), *args)
    assert code == 1, lines
    errors = [d for d in diags(lines, prog) if d["sev"] == "error"]
    assert errors, lines
    first = errors[0]
    want_line = line + HEADER_LINES if chip is not None else 1
    assert (int(first["line"]), int(first["col"])) == (want_line, col), lines
    for w in words:
        assert w in first["msg"], f"{w!r} not in {first['msg']!r}"
    assert not (tmp_path / "out").exists()  # a failed run writes no output


@pytest.mark.parametrize("row", WARNINGS, ids=[r[0] for r in WARNINGS])
def test_warning_program(tmp_path, row):
    rid, chip, body, args, line, col, words = _row(row)
    code, lines, prog = run_cli(tmp_path, _text(chip, body), *args)
    assert code == 0, lines
    found = [d for d in diags(lines, prog) if d["sev"] == "warning"
             and all(w in d["msg"] for w in words)]
    assert len(found) == 1, lines
    assert (int(found[0]["line"]), int(found[0]["col"])) == (line + HEADER_LINES, col)


@pytest.mark.parametrize("row", PASSING, ids=[r[0] for r in PASSING])
def test_passing_boundary(tmp_path, row):
    rid, chip, body, args = _row(row)[:4]
    code, lines, prog = run_cli(tmp_path, _text(chip, body), *args)
    assert (code, lines) == (0, [])
    assert np.load(tmp_path / "out" / "o.npy").shape == (256,)


@pytest.mark.parametrize("rid", CHECKS_RULES + STATIC_CHECKS_RULES)
def test_checks_warn_turns_the_rule_into_one_warning(tmp_path, rid):
    _, chip, body, args, line, col, words = _by_id(FAILING, rid)
    code, lines, prog = run_cli(tmp_path, _text(chip, body), "--checks=warn", *args)
    assert code == 0, lines
    found = [d for d in diags(lines, prog) if d["sev"] == "warning" and words[0] in d["msg"]]
    assert len(found) == 1, lines
    assert (int(found[0]["line"]), int(found[0]["col"])) == (line + HEADER_LINES, col)


@pytest.mark.parametrize("rid", CHECKS_RULES + STATIC_CHECKS_RULES)
def test_checks_off_silences_the_rule(tmp_path, rid):
    _, chip, body, args, line, col, words = _by_id(FAILING, rid)
    code, lines, prog = run_cli(tmp_path, _text(chip, body), "--checks=off", *args)
    assert code == 0, lines
    assert not any(words[0] in d["msg"] for d in diags(lines, prog)), lines


@pytest.mark.parametrize("rid", ["bounds-vector", "bounds-dma-gm", "bounds-cmpmask",
                                 "repeat-range", "type-unsupported", "vsel-mode-chip",
                                 "deadlock-next-set", "counter-repeats"])
def test_always_errors_whatever_checks_says(tmp_path, rid):
    _, chip, body, args, line, col, words = _by_id(FAILING, rid)
    for checks in ("warn", "off"):
        code, lines, prog = run_cli(tmp_path, _text(chip, body), f"--checks={checks}", *args)
        errors = [d for d in diags(lines, prog) if d["sev"] == "error"]
        assert code == 1 and words[0] in errors[0]["msg"], lines


def test_history_warnings_are_never_errors_and_off_skips_them(tmp_path):
    _, chip, body, args, line, col, words = _by_id(WARNINGS, "warn-race-raw")
    text = _text(chip, body + "\nvadd.f32 x, y, @0x8000")
    code, lines, prog = run_cli(tmp_path, text, "--checks=error")
    assert code == 0 and {"race:", "never written"} <= {
        w for d in diags(lines, prog) for w in ("race:", "never written") if w in d["msg"]}
    code, lines, prog = run_cli(tmp_path, text, "--checks=off")
    assert (code, lines) == (0, [])


def test_warning_once_per_statement(tmp_path):
    body = "li x1, 0\nl:\nvadd.f32 x, y, @0x8000\nadd x1, x1, 1\nblt x1, 5, l\n" \
           "set_flag V, MTE3, 0\nset_flag V, MTE3, 0\nset_flag V, MTE3, 0\nwait_flag V, MTE3, 0"
    code, lines, prog = run_cli(tmp_path, _text("ascend910b", body))
    ds = diags(lines, prog)
    assert code == 0
    assert [int(d["line"]) for d in ds if "never written" in d["msg"]] == [HEADER_LINES + 3]
    assert [int(d["line"]) for d in ds if "already set" in d["msg"]] == [
        HEADER_LINES + 7, HEADER_LINES + 8]


def test_static_errors_all_reported_at_most_20(tmp_path):
    body = "\n".join(f"vadd.f32 q{k}, y, z" for k in range(30))
    code, lines, prog = run_cli(tmp_path, _text("ascend910b", body))
    ds = diags(lines, prog)
    assert code == 1 and len(ds) == 20
    assert [int(d["line"]) for d in ds] == list(range(HEADER_LINES + 1, HEADER_LINES + 21))


def test_check_command_runs_every_data_independent_check(tmp_path):
    prog = tmp_path / "k.vasm"
    prog.write_text(_text("ascend910b", "vadd.f32 x, y, big, repeat=5"))
    res = CliRunner().invoke(main, ["check", str(prog)])
    assert res.exit_code == 1 and "footprint" not in res.output and "needs" in res.output
    prog.write_text(_text("ascend910b", "vadd.f32 @0x10, y, z\nvadd.f32 q, y, z"))
    res = CliRunner().invoke(main, ["check", str(prog)])
    assert res.exit_code == 1
    assert len(diags(diagnostic_lines(res.stderr.splitlines()), prog)) == 2


def test_runtime_error_keeps_earlier_warnings(tmp_path):
    body = "vadd.f32 x, y, @0x8000\nvadd.f32 x, y, big, repeat=5"
    code, lines, prog = run_cli(tmp_path, _text("ascend910b", body))
    sev = [d["sev"] for d in diags(lines, prog)]
    assert code == 1 and sev == ["warning", "error"]


@pytest.mark.parametrize("args", [["--checks=never"], ["--chip", "ascend999"], ["--bogus"],
                                  ["--max-steps", "0"]])
def test_usage_errors_exit_2(tmp_path, args):
    prog = tmp_path / "k.vasm"
    prog.write_text(_text("ascend910b", "nop"))
    res = CliRunner().invoke(main, ["run", str(prog), *args])
    assert res.exit_code == 2
    assert "Traceback" not in res.output


def test_missing_program_path_exits_2(tmp_path):
    res = CliRunner().invoke(main, ["run", str(tmp_path / "nope.vasm")])
    assert res.exit_code == 2
