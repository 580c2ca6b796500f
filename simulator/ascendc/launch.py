"""Source rewrites that let the host C++ compiler take an AscendC file (issue 14).

- `k<<<blockDim, l2ctrl, stream>>>(args)` becomes a call of the headers' launch helper,
  `pipev::launch(__FILE__, __LINE__, "k", blockDim, k, args)`.
- `__ubuf__ T name[N];` (a local array in the Unified Buffer) becomes a reference to an array
  the headers place in the UB host buffer, `auto &name = ::pipev::ubuf_array<T [N]>("name");`
  (one placement per declaration site and launch; the helper takes the call site from
  `__builtin_FILE()`/`__builtin_LINE()` default arguments).
- `extern "C"` before a `__global__` function is dropped (blanked): the kernel is an ordinary
  C++ function of the one host program, which no C code names, and a kernel called after a C
  library function (an operator `div`, `asinh`, `floor`) then overloads it instead of
  conflicting with its C declaration (the device compile has no C library).
- Kernel-only runs (`pipev run k.cpp --kernel NAME`) append an entry point that launches NAME
  with arguments passed from pipev (`entry_trailer`).

Every rewrite keeps each line where it was (a replaced span holds as many newlines as the
original), so the compiler's diagnostics and `__LINE__` still name the user's lines. A small
scanner, not a regex, finds the launches: comments and string/char literals are blanked first,
the kernel name is found by walking back over balanced `<...>` and `::`, and the `>>>` and the
argument list are matched at bracket depth 0.
"""

from __future__ import annotations

import re

LAUNCH_HELPER = "pipev::launch"
# a `<<<>>>` launch passes its argument list's text too: GM buffers are named after it (gm_x)
NAMED_LAUNCH_HELPER = "pipev::launch_named"
UB_ARRAY_HELPER = "::pipev::ubuf_array"

_IDENT = re.compile(r"[A-Za-z_]\w*")
_INTERESTING = re.compile(r"//|/\*|\"|'")
_OPEN = "([{"
_CLOSE = ")]}"


class RewriteError(Exception):
    """A construct the rewrite cannot handle, at 1-based LINE:COL of the original text."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message


def blank(text: str) -> str:
    """TEXT with every comment and the inside of every string and character literal replaced by
    spaces (newlines kept), so structure can be scanned without being fooled by them. The
    result has the same length: an index means the same character in both."""
    out = list(text)
    i, n = 0, len(text)
    while True:
        m = _INTERESTING.search(text, i)
        if m is None:
            break
        s = m.start()
        tok = m.group()
        if tok == "//":
            e = s
            while True:  # a line comment continues over backslash-newlines
                nl = text.find("\n", e)
                if nl < 0:
                    e = n
                    break
                if text[nl - 1] == "\\" or text[nl - 2:nl] == "\\\r":
                    e = nl + 1
                    continue
                e = nl
                break
            lo, hi = s, e
        elif tok == "/*":
            e = text.find("*/", s + 2)
            e = n if e < 0 else e + 2
            lo, hi = s, e
        elif tok == "'" and _digit_separator(text, s):
            i = s + 1
            continue
        else:  # a string or character literal: keep its quotes, blank what is between
            e = _raw_end(text, s) if tok == '"' and _raw_prefix(text, s) else \
                _quoted_end(text, s, tok)
            closed = e > s + 1 and text[e - 1] == tok
            lo, hi = s + 1, e - 1 if closed else e
        for k in range(lo, hi):
            if out[k] != "\n":
                out[k] = " "
        i = e
    return "".join(out)


def _raw_prefix(text: str, q: int) -> bool:
    """The quote at Q opens a raw string (R"…", u8R"…", LR"…")."""
    if q == 0 or text[q - 1] != "R":
        return False
    k = q - 1
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
        k -= 1
    return text[k:q] in ("R", "u8R", "uR", "UR", "LR")


def _raw_end(text: str, q: int) -> int:
    """The index after the raw string literal whose opening quote is at Q."""
    paren = text.find("(", q)
    if paren < 0:
        return len(text)
    delim = text[q + 1:paren]
    end = text.find(")" + delim + '"', paren)
    return len(text) if end < 0 else end + len(delim) + 2


def _quoted_end(text: str, q: int, quote: str) -> int:
    """The index after the literal opened at Q (its closing quote included); an unterminated
    literal ends at the end of its line."""
    k, n = q + 1, len(text)
    while k < n:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == quote:
            return k + 1
        if c == "\n":
            return k
        k += 1
    return n


def _digit_separator(text: str, q: int) -> bool:
    """The ' at Q separates digits of a number (1'000'000, 0xFF'FF) rather than opening a
    character literal."""
    k = q
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_.'"):
        k -= 1
    return k < q and text[k].isdigit()


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _skip_ws_back(b: str, k: int) -> int:
    while k > 0 and b[k - 1].isspace():
        k -= 1
    return k


def _skip_ws(b: str, k: int) -> int:
    while k < len(b) and b[k].isspace():
        k += 1
    return k


def _angle_start(b: str, close: int) -> int:
    """The index of the '<' matching the '>' at CLOSE, walking back over nested <...> (and
    brackets, inside which '<' and '>' are comparisons); -1 when there is none."""
    angles, brackets = 0, []
    for k in range(close, -1, -1):
        c = b[k]
        if c in _CLOSE:
            brackets.append(_OPEN[_CLOSE.index(c)])
        elif c in _OPEN:
            if not brackets or brackets.pop() != c:
                return -1
        elif brackets:
            continue
        elif c == ">":
            angles += 1
        elif c == "<":
            angles -= 1
            if angles == 0:
                return k
        elif c == ";":
            return -1
    return -1


def _name_start(b: str, end: int) -> int:
    """The start of the kernel name (identifier, template arguments, `::` qualifiers) ending at
    END (exclusive, whitespace before `<<<` already skipped); -1 when none is there."""
    k = end
    while True:
        if k > 0 and b[k - 1] == ">":
            open_ = _angle_start(b, k - 1)
            if open_ < 0:
                return -1
            k = _skip_ws_back(b, open_)
        j = k
        while j > 0 and (b[j - 1].isalnum() or b[j - 1] == "_"):
            j -= 1
        if j == k or b[j].isdigit():
            return -1
        k = j
        q = _skip_ws_back(b, k)
        if q >= 2 and b[q - 2:q] == "::":
            q2 = _skip_ws_back(b, q - 2)
            if q2 > 0 and (b[q2 - 1].isalnum() or b[q2 - 1] in "_>"):
                k = q2
                continue
            return q - 2  # ::kernel (the global namespace)
        return k


def _match(b: str, start: int, stop: str) -> int:
    """The index of STOP at bracket depth 0 at or after START, -1 on EOF, an unbalanced closing
    bracket or a `;` at depth 0."""
    depth = 0
    k, n = start, len(b)
    while k < n:
        if depth == 0 and b.startswith(stop, k):
            return k
        c = b[k]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth < 0:
                return -1
        elif c == ";" and depth == 0:
            return -1
        k += 1
    return -1


def _split_commas(b: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the comma-separated parts of b[start:end] at bracket depth 0."""
    parts, depth, s = [], 0, start
    for k in range(start, end):
        c = b[k]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c == "," and depth == 0:
            parts.append((s, k))
            s = k + 1
    parts.append((s, end))
    return parts


def _newlines(text: str, s: int, e: int) -> str:
    return "\n" * text.count("\n", s, e)


def one_line(text: str) -> str:
    return " ".join(text.split())


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Edit:
    __slots__ = ("start", "end", "text")

    def __init__(self, start: int, end: int, text: str):
        self.start, self.end, self.text = start, end, text


def _launch_edits(text: str, b: str) -> list[_Edit]:
    edits: list[_Edit] = []
    pos = 0
    while True:
        p = b.find("<<<", pos)
        if p < 0:
            return edits
        line, col = _line_col(text, p)

        def fail(why: str, line=line, col=col):
            raise RewriteError(line, col, f"cannot parse this kernel launch ({why})")

        name_end = _skip_ws_back(b, p)
        name_s = _name_start(b, name_end)
        if name_s < 0:
            fail("no kernel name before <<<")
        cfg_e = _match(b, p + 3, ">>>")
        if cfg_e < 0:
            fail("no matching >>>")
        paren = _skip_ws(b, cfg_e + 3)
        if paren >= len(b) or b[paren] != "(":
            fail("no argument list after >>>")
        close = _match(b, paren + 1, ")")
        if close < 0:
            fail("no closing parenthesis of the argument list")
        parts = _split_commas(b, p + 3, cfg_e)
        if not 1 <= len(parts) <= 3 or not b[parts[0][0]:parts[0][1]].strip():
            fail(f"<<<…>>> takes blockDim, l2ctrl, stream; got {len(parts)} parts"
                 if len(parts) > 3 else "no blockDim in <<<…>>>")
        name = text[name_s:name_end]
        d0, d1 = parts[0]
        args_s = paren + 1
        has_args = bool(b[args_s:close].strip())
        arg_text = _c_string(one_line(b[args_s:close])) if has_args else "nullptr"
        out = (f'{NAMED_LAUNCH_HELPER}(__FILE__, __LINE__, "{one_line(name)}", {arg_text}, '
               # the kernel called through a lambda: a kernel named like a libc function
               # (`select`, the vendor's reg select sample) is an overload set, not a value
               f"{text[d0:d1]}, [&](auto... pipev_a_) {{ {name}(pipev_a_...); }}"
               f"{_newlines(text, name_end, d0)}"
               f"{_newlines(text, d1, args_s)}")
        out += (f", {text[args_s:close]})" if has_args else f"{text[args_s:close]})")
        edits.append(_Edit(name_s, close + 1, out))
        pos = close + 1


_UBUF = re.compile(r"\b__ubuf__\b")
_ARRAY_DECL = re.compile(
    r"\s*(?P<type>(?:[A-Za-z_][\w:]*(?:\s*<[^;\[\]]*>)?\s+)+?)"
    r"(?P<decls>[A-Za-z_]\w*\s*(?:\[[^\[\];]+\]\s*)+"
    r"(?:,\s*[A-Za-z_]\w*\s*(?:\[[^\[\];]+\]\s*)+)*)",
)
_DECLARATOR = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*(?P<dims>(?:\[[^\[\];]+\]\s*)+)")


def _ubuf_edits(text: str, b: str) -> list[_Edit]:
    edits: list[_Edit] = []
    for m in _UBUF.finditer(b):
        s = m.start()
        semi = b.find(";", m.end())
        if semi < 0:
            continue
        stmt = b[m.end():semi]
        if any(c in re.sub(r"\[[^\[\];]*\]", "", stmt) for c in "()*&"):
            continue  # a pointer, a parameter or something else: the headers' macro handles it
        decl = _ARRAY_DECL.fullmatch(stmt)
        if decl is None:
            if "[" in stmt:
                line, col = _line_col(text, s)
                why = ("an initializer" if "=" in stmt else "an unrecognised declaration")
                raise RewriteError(line, col, f"cannot rewrite this __ubuf__ array ({why}; "
                                   "write `__ubuf__ TYPE NAME[N];` without an initializer)")
            continue
        base = m.end()
        words = [w for w in text[base + decl.start("type"):base + decl.end("type")].split()
                 if w not in ("static", "__ubuf__")]
        type_text = one_line(" ".join(words))
        pieces = []
        for d in _DECLARATOR.finditer(text, base + decl.start("decls"),
                                      base + decl.end("decls")):
            dims = "".join(one_line(d.group("dims")).split(" "))
            pieces.append(f"auto &{d.group('name')} = {UB_ARRAY_HELPER}<{type_text} {dims}>"
                          f'("{d.group("name")}");')
        edits.append(_Edit(s, semi + 1, " ".join(pieces) + _newlines(text, s, semi)))
    return edits


# `extern "C"` (its string blanked) before a declaration whose specifiers include __global__
_EXTERN_C_KERNEL = re.compile(r'\bextern\s*"\s"(?=(?:\s*\w+)*?\s*\b__global__\b)')


def _extern_c_edits(text: str, b: str) -> list[_Edit]:
    return [_Edit(m.start(), m.end(), " " * (m.end() - m.start()))
            for m in _EXTERN_C_KERNEL.finditer(b)]


def rewrite(text: str) -> str:
    """TEXT with its kernel launches and `__ubuf__` local arrays rewritten and its kernels'
    `extern "C"` dropped (the same text when it has none of them); raises RewriteError for a
    launch or array it cannot parse."""
    if "<<<" not in text and "__ubuf__" not in text and not (
            "extern" in text and "__global__" in text):
        return text
    b = blank(text)
    edits = sorted(_launch_edits(text, b) + _ubuf_edits(text, b) + _extern_c_edits(text, b),
                   key=lambda e: e.start)
    out, pos = [], 0
    for e in edits:
        if e.start < pos:
            continue  # inside a span already rewritten (a __ubuf__ within launch arguments)
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def kernel_names(text: str) -> list[str]:
    """The names of the `__global__` functions TEXT defines, in order."""
    found = re.findall(r"__global__[^;{}()]*?\bvoid\s+([A-Za-z_]\w*)\s*\(", blank(text))
    return list(dict.fromkeys(found))


def definition_line(text: str, kernel: str) -> int:
    """The line of KERNEL's definition (`void NAME(`) in TEXT, or 1."""
    base = kernel.split("<")[0].split("::")[-1].strip()
    if not _IDENT.fullmatch(base):
        return 1
    m = re.search(rf"\bvoid\s+{base}\s*\(", blank(text))
    return _line_col(text, m.start())[0] if m else 1


def entry_trailer(kernel: str, path: str, line: int = 1) -> str:
    """C++ appended to a kernel-only file: `pipev_kernel_arity()` (KERNEL's parameter count)
    and `pipev_kernel_entry(args, blockDim)`, which launches KERNEL with ARGS[i] as parameter i
    (a pointer parameter gets the address itself, a scalar parameter the value it points at)."""
    name = one_line(kernel)
    where = path.replace("\\", "\\\\").replace('"', '\\"')
    return f"""
#line 1 "<pipev --kernel {name.replace('"', "'")}>"
#include <cstdint>
#include <type_traits>
#include <utility>
namespace pipev_entry {{
template <class P> P arg(void *p) {{
    if constexpr (std::is_pointer_v<P>) return reinterpret_cast<P>(p);
    else return *static_cast<std::remove_reference_t<P> *>(p);
}}
template <class... P, std::size_t... I>
void call(void (*k)(P...), void *const *a, uint32_t dim, std::index_sequence<I...>) {{
    {LAUNCH_HELPER}("{where}", {line}, "{name}", dim, k, arg<P>(a[I])...);
}}
template <class... P> void call(void (*k)(P...), void *const *a, uint32_t dim) {{
    call(k, a, dim, std::index_sequence_for<P...>{{}});
}}
template <class... P> constexpr int arity(void (*)(P...)) {{ return sizeof...(P); }}
}}  // namespace pipev_entry
extern "C" int pipev_kernel_arity(void) {{ return pipev_entry::arity({name}); }}
extern "C" void pipev_kernel_entry(void *const *args, uint32_t block_dim) {{
    pipev_entry::call({name}, args, block_dim);
}}
"""
