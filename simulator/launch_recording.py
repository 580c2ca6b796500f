"""One `.vasm` replay for a whole launch of a C++ kernel (#29): `--save-vasm F` writes each
core's straight-line recording (F, F.0.1, …); with several cores it also writes
`STEM.cores.vasm` (`STEM.L.cores.vasm` for launch L), every core's statements in one program of
`.block_dim N`, each core's part reached by a branch on `block_idx` and ended by `halt`, so that
`pipev run` of it replays the launch: the cores one after another on one GM, as the run had
them, and the cross-core race check over all of them. Its GM inputs are the first core's (GM
as the launch found it). The dispatch adds a few scalar instructions per core: its cycles are
the recordings' plus those."""

from __future__ import annotations

from pathlib import Path

_HEADER = (".chip", ".gm", ".ub", ".block_dim")


def launch_path(save_vasm: str, launch: int) -> Path:
    p = Path(save_vasm)
    tag = ".cores" if launch == 0 else f".{launch}.cores"
    return p.with_name(p.stem + tag + p.suffix)


def _split(text: str) -> tuple[list[str], list[str]]:
    """A recording's declarations and its statements (with their .loc lines)."""
    head, body = [], []
    for line in text.splitlines():
        if not body and (line.startswith(_HEADER) or line.startswith(";") or not line.strip()):
            head.append(line)
        else:
            body.append(line)
    return head, body


def combined(texts: list[str], name: str) -> str:
    """The launch's recording from its cores' (TEXTS, core 0 first; core 0's GM files)."""
    heads = [_split(t)[0] for t in texts]
    chip = next(line for line in heads[0] if line.startswith(".chip"))
    out = [f"; pipev: the launch {name} of {len(texts)} cores as executed (straight-line "
           "replay of each core, one after another)", chip, f".block_dim {len(texts)}"]
    out += [line for line in heads[0] if line.startswith(".gm")]
    seen: set[str] = set()
    for head in heads:  # every core's UB tensors (the same kernel: the same places)
        for line in head:
            if line.startswith(".ub") and line.split()[1] not in seen:
                seen.add(line.split()[1])
                out.append(line)
    out += [f"    beq block_idx, {k}, core_{k}" for k in range(1, len(texts))]
    for k, text in enumerate(texts):
        if k:
            out.append(f"core_{k}:")
        out += _split(text)[1]
        out.append("    halt")
    return "\n".join(out) + "\n"
