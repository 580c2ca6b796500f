"""TIK's `data_move_pad` (#29): the byte-granular move between GM and UB that dynamic-shape
operators use for tails (DropOutDoMaskVsel: `data_move_pad(dst, src, 1, n * size, 0, 0)`).
It is the DataCopyPad DMA (`copy_gm_to_ub_pad` / `copy_ub_to_gm_pad`, docs/isa.md): nburst
bursts of `burst` bytes; the GM side's gap in bytes, the UB side's in 32-byte blocks; GM → UB
may pad each burst with left/right elements of padding_value. The argument order after
`burst` (dst_gap, src_gap, right_padding, left_padding, padding_value) is the one the vendor's
operators call it with (docs/decisions.md: TIK's page for it is not among the public pages
read)."""

from __future__ import annotations

from simulator.tik.errors import api
from simulator.tik.values import Tensor

DIRECTIONS = {("gm", "ubuf"): ("copy_gm_to_ub_pad", "MTE2"),
              ("ubuf", "gm"): ("copy_ub_to_gm_pad", "MTE3")}


class PadMoves:
    """Mixed into Tik."""

    @api
    def data_move_pad(self, dst, src, nburst, burst, dst_gap=0, src_gap=0, right_padding=0,
                      left_padding=0, padding_value=None) -> None:
        with self._call("data_move_pad") as c:
            for role, t in (("dst", dst), ("src", src)):
                if not isinstance(t, Tensor):
                    raise c.error(f"{role} must be a Tensor, got {type(t).__name__}")
            mnemonic, pipe = DIRECTIONS.get((src.root.scope, dst.root.scope), (None, None))
            if mnemonic is None:
                raise c.error("moves GM to UB or UB to GM")
            if dst.dtype != src.dtype:
                raise c.error(f"dst '{dst.name}' is {dst.dtype} but src '{src.name}' is "
                              f"{src.dtype} (they must have the same dtype)")
            ub = dst if pipe == "MTE2" else src
            d = c.tensor(dst, "dst", write=True, space=None)
            s = c.tensor(src, "src", space=None)
            fields = [f"nburst={c.value(nburst, 'nburst', 1, 4095)}",
                      f"len={c.value(burst, 'burst', 1, (1 << 21) - 1)}",
                      f"src_gap={c.value(src_gap, 'src_gap', 0, (1 << 32) - 1)}",
                      f"dst_gap={c.value(dst_gap, 'dst_gap', 0, (1 << 32) - 1)}"]
            if pipe == "MTE2":
                limit = 32 // ub.t.size
                fields += [f"left_pad={c.value(left_padding, 'left_padding', 0, limit)}",
                           f"right_pad={c.value(right_padding, 'right_padding', 0, limit)}"]
                if padding_value is not None:
                    fields.append(f"pad_value={padding_value}")
            elif (left_padding, right_padding, padding_value) != (0, 0, None):
                raise c.error("UB to GM takes no padding")
            c.emit(f"{mnemonic}.{ub.t.name} {d}, {s}, {', '.join(fields)}")
            c.record(pipe)
