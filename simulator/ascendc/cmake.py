"""`pipev run DIR`: the sources, include directories and definitions of a vendor sample
directory, read from its CMakeLists.txt (docs/ascendc.md, "Running a project as it is").

This is no CMake: it reads the commands the vendor's kernel-launch samples use and nothing
else. An `if()` whose condition is `[NOT] DEFINED V`, `[NOT] A STREQUAL B` or `[NOT] A MATCHES
REGEX` (the samples' `if("${RUN_MODE}" STREQUAL "cpu")`), or such conditions joined by `AND` /
`OR`, takes its branch; any other condition reads every branch. A `message(FATAL_ERROR ...)`
in a branch so decided stops the run with its text, as cmake would:
- `set(VAR VALUE...)` (CACHE/PARENT_SCOPE parts dropped), `list(APPEND VAR VALUE...)`,
  `file(GLOB|GLOB_RECURSE VAR PATTERN...)`;
- `include(FILE)` of a file inside DIR (others, e.g. the CANN's ascendc.cmake, are skipped);
- `add_executable(NAME SOURCE...)` — exactly one — and the sources of the libraries it links
  (`target_link_libraries`) that the files define: `add_library`, `ascendc_library`,
  `ascendc_fatbin_library`, `target_sources`;
- `include_directories`, `target_include_directories`, `ascendc_include_directories` (-I of
  the directories that exist), `add_definitions`/`add_compile_definitions` (-D for every
  file), `target_compile_definitions`, `ascendc_compile_definitions` (-D for the files of that
  target: PRIVATE and PUBLIC ones for its own sources, PUBLIC and INTERFACE ones also for the
  targets that link it, transitively; none given: PRIVATE); a target linking the CPU twin's
  imported `tikicpulib::...` (directly or through a library) gets `ASCENDC_CPU_DEBUG`, as the
  CANN package's target gives it.
`CMAKE_ASC_ARCHITECTURES` (`dav-2201`, `dav-3510`: the CANN 9 samples' build target) picks the
chip profile of that __NPU_ARCH__ when no --chip is given.
`${CMAKE_CURRENT_SOURCE_DIR}`, `${CMAKE_SOURCE_DIR}`, `${PROJECT_SOURCE_DIR}` and
`${CMAKE_CURRENT_LIST_DIR}` are DIR (the list file's directory for the last), and relative
paths are DIR's, as CMake takes them in an included file too; `pipev run DIR
-D NAME=VALUE` sets NAME first, as `cmake -D` does (a `set(... CACHE ...)` keeps it, a plain
`set()` changes it); a variable set nowhere is empty. A source that names such a
variable, holds a generator expression (`$<...>`) or does not exist is refused with an error
at its line; so is a project with no or several executables. C++ sources (.cpp .cc .cxx
.asc) are compiled; headers in source lists are not.
"""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

import attrs

from simulator.front_ends import front_end_for

_DIR_VARS = ("CMAKE_CURRENT_SOURCE_DIR", "CMAKE_SOURCE_DIR", "PROJECT_SOURCE_DIR",
             "CMAKE_CURRENT_BINARY_DIR")
_LIBRARIES = ("add_library", "ascendc_library", "ascendc_fatbin_library")
_LIB_KINDS = {"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "EXCLUDE_FROM_ALL"}
_EXE_KINDS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL"}
_SCOPES = {"PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
_VAR = re.compile(r"\$\{([A-Za-z0-9_.+-]+)\}")
_COMMAND = re.compile(r"([A-Za-z_]\w*)[ \t]*\(")


class CMakeError(Exception):
    """FILE:LINE: why the project cannot be read (a usage error of `pipev run DIR`)."""


@attrs.frozen
class Project:
    executable: str
    sources: tuple[str, ...]  # as the user would name them (relative to the cwd when inside)
    includes: tuple[str, ...]
    defines: tuple[str, ...]  # for every source
    # a source's own definitions besides (its target's, and those its target's links pass on)
    unit_defines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    lists: tuple[str, ...] = ()  # the CMake files read (resolved): what the project depends on
    # the CANN 9 samples' CMAKE_ASC_ARCHITECTURES (dav-2201, dav-3510): the chip they build for
    npu_arch: int | None = None


@attrs.define
class _Arg:
    text: str
    quoted: bool
    line: int


@attrs.define
class _State:
    root: Path  # DIR, resolved
    given: str  # DIR as the user wrote it
    vars: dict[str, list[str]] = attrs.Factory(dict)
    executables: dict[str, list[tuple[_Arg, Path]]] = attrs.Factory(dict)
    libraries: dict[str, list[tuple[_Arg, Path]]] = attrs.Factory(dict)
    links: dict[str, list[str]] = attrs.Factory(dict)
    includes: list[str] = attrs.Factory(list)
    defines: list[str] = attrs.Factory(list)
    # target -> [(scope, definition)]: target_compile_definitions, ascendc_compile_definitions
    target_defines: dict[str, list[tuple[str, str]]] = attrs.Factory(dict)
    read: set[Path] = attrs.Factory(set)


def read_project(directory: str, variables: dict[str, str] | None = None) -> Project:
    """The project in DIRECTORY, VARIABLES set first (as `cmake -D NAME=VALUE` would: pipev
    run's -D); raises CMakeError."""
    root = Path(directory)
    lists = root / "CMakeLists.txt"
    if not lists.is_file():
        raise CMakeError(f"{directory}: error: no CMakeLists.txt in this directory (`pipev run "
                         "DIR` reads the sources a vendor sample's CMakeLists.txt names; give "
                         "the sources instead: pipev run main.cpp kernel.cpp)")
    state = _State(root.resolve(), directory)
    state.vars.update({k: v.split(";") for k, v in (variables or {}).items()})
    _read_file(state, lists.resolve())
    if not state.executables:
        raise CMakeError(f"{lists}:1: error: no add_executable() (pipev runs the program's "
                         "main: name its sources with `pipev run main.cpp kernel.cpp`)")
    if len(state.executables) > 1:
        raise CMakeError(f"{lists}:1: error: several executables "
                         f"({', '.join(state.executables)}): run one with `pipev run "
                         "SOURCE...`")
    name, own = next(iter(state.executables.items()))
    targets = [(name, own)] + [(lib, state.libraries[lib]) for lib in _linked(state, name)]
    sources: dict[str, tuple[str, ...]] = {}  # source -> its target's definitions
    for target, pairs in targets:
        for arg, lists_file in pairs:
            source = _source(state, arg, lists_file)
            if source is not None and source not in sources:
                sources[source] = _target_defines(state, target)
    if not sources:
        raise CMakeError(f"{lists}:1: error: the executable {name} has no C++ source")
    return Project(name, tuple(sources), tuple(dict.fromkeys(state.includes)),
                   tuple(dict.fromkeys(state.defines)),
                   tuple((s, d) for s, d in sources.items() if d),
                   tuple(sorted(str(p) for p in state.read)), _npu_arch(state))


def _npu_arch(state: _State) -> int | None:
    """The __NPU_ARCH__ the first of CMAKE_ASC_ARCHITECTURES names (dav-NNNN), if any."""
    for value in state.vars.get("CMAKE_ASC_ARCHITECTURES", []):
        m = re.fullmatch(r"dav-(\d+)", value.strip())
        if m:
            return int(m.group(1))
    return None


def _target_defines(state: _State, target: str) -> tuple[str, ...]:
    """TARGET's PRIVATE and PUBLIC definitions, then the PUBLIC and INTERFACE ones of the
    libraries it links (transitively), as CMake passes them on."""
    own = [d for scope, d in state.target_defines.get(target, []) if scope != "INTERFACE"]
    for lib in _linked(state, target):
        own += [d for scope, d in state.target_defines.get(lib, []) if scope != "PRIVATE"]
    if any(name.startswith("tikicpulib::") for name in _link_names(state, target)):
        own.append("ASCENDC_CPU_DEBUG")  # the CPU-twin package's imported target defines it
    return tuple(dict.fromkeys(own))


def _link_names(state: _State, target: str) -> list[str]:
    """Every name TARGET links, transitively through the libraries the files define (external
    ones, such as the CANN's imported targets, included)."""
    names: list[str] = []
    todo = list(state.links.get(target, []))
    while todo:
        name = todo.pop(0)
        if name not in names:
            names.append(name)
            todo += state.links.get(name, [])
    return names


def _linked(state: _State, name: str) -> list[str]:
    """The libraries the files define that NAME links, transitively, in order."""
    out: list[str] = []
    todo = list(state.links.get(name, []))
    while todo:
        lib = todo.pop(0)
        if lib in state.libraries and lib not in out:
            out.append(lib)
            todo += state.links.get(lib, [])
    return out


def _shown(path: Path, state: _State) -> str:
    """PATH as the user would name it: under DIR as they gave it when inside it (`proj/k.cpp`),
    else absolute."""
    try:
        inside = path.resolve().relative_to(state.root)
    except ValueError:
        return str(path.resolve())
    return os.path.normpath(os.path.join(state.given, inside))


def _source(state: _State, arg: _Arg, lists: Path) -> str | None:
    where = f"{_shown(lists, state)}:{arg.line}"
    if "$<" in arg.text:
        raise CMakeError(f"{where}: error: a generator expression in a source list "
                         f"({arg.text}) is not read by pipev")
    unknown = [v for v in _VAR.findall(arg.text) if v not in state.vars and v not in _DIR_VARS
               and v != "CMAKE_CURRENT_LIST_DIR"]
    if unknown:
        raise CMakeError(f"{where}: error: source {arg.text} names ${{{unknown[0]}}}, which "
                         "the CMake files do not set (give it as `pipev run DIR -D "
                         f"{unknown[0]}=VALUE`, as to cmake, or run the sources: pipev run "
                         "main.cpp kernel.cpp)")
    text = _expand(state, arg.text, lists)
    path = Path(text) if Path(text).is_absolute() else state.root / text
    if front_end_for(str(path)) != "cpp" or path.is_dir():
        return None  # a header or another language named among the sources
    if not path.is_file():
        raise CMakeError(f"{where}: error: source {arg.text} ({_shown(path, state)}) does not "
                         "exist")
    return _shown(path, state)


def _expand(state: _State, text: str, lists: Path) -> str:
    def one(m: re.Match) -> str:
        name = m.group(1)
        if name == "CMAKE_CURRENT_LIST_DIR":
            return str(lists.parent)
        if name in _DIR_VARS:
            return str(state.root)
        return ";".join(state.vars.get(name, []))
    for _ in range(8):  # nested ${A_${B}} resolves from the inside out
        new = _VAR.sub(one, text)
        if new == text:
            break
        text = new
    return re.sub(r"\$ENV\{[^}]*\}", "", text)


def _values(state: _State, args: list[_Arg], lists: Path) -> list[_Arg]:
    """ARGS with variables expanded; an unquoted list value splits into its items."""
    out = []
    for a in args:
        if "$<" in a.text or "${" not in a.text or _unknown(state, a.text):
            out.append(a)  # a generator expression stays whole: readers skip or refuse it
            continue
        if a.quoted:  # one argument, however many items its variables hold
            out.append(_Arg(_expand(state, a.text, lists), True, a.line))
            continue
        m = _VAR.fullmatch(a.text)
        if m and m.group(1) in state.vars:
            out += [_Arg(v, False, a.line) for v in state.vars[m.group(1)]]
            continue
        out += [_Arg(v, False, a.line) for v in _expand(state, a.text, lists).split(";") if v]
    return out


def _unknown(state: _State, text: str) -> bool:
    return any(v not in state.vars and v not in _DIR_VARS and v != "CMAKE_CURRENT_LIST_DIR"
               for v in _VAR.findall(text))


def _read_file(state: _State, lists: Path) -> None:
    resolved = lists.resolve()
    if resolved in state.read:
        return
    state.read.add(resolved)
    branches: list[list] = []  # per open if(): [reading, a branch taken, decided]
    for name, args in _commands(lists.read_text(encoding="utf-8", errors="replace")):
        name = name.lower()
        if name in ("if", "elseif", "else", "endif"):
            _branch(state, branches, name, args, lists)
        elif all(frame[0] for frame in branches):
            if name == "message" and args and args[0].text == "FATAL_ERROR" \
                    and all(frame[2] for frame in branches):
                _fatal(state, args, lists)
            _command(state, name, args, lists)


def _fatal(state: _State, args: list[_Arg], lists: Path) -> None:
    """message(FATAL_ERROR ...) in a branch pipev decided: the project's own refusal (a
    scenario that needs another architecture), as cmake would stop with it."""
    text = "".join(a.text for a in _values(state, args[1:], lists))
    raise CMakeError(f"{_shown(lists, state)}:{args[0].line}: error: {text} (the project's "
                     "message(FATAL_ERROR); give the -D values it asks for)")


def _branch(state: _State, branches: list[list], name: str, args: list[_Arg],
            lists: Path) -> None:
    """if/elseif/else/endif: a condition pipev can decide picks its branch; one it cannot
    (anything but [NOT] DEFINED V and [NOT] A STREQUAL B) reads every branch."""
    if name == "if":
        cond = _condition(state, args, lists)
        branches.append([cond is not False, cond is True, cond is not None])
    elif not branches:
        return
    elif name == "endif":
        branches.pop()
    else:
        frame = branches[-1]
        if not frame[2]:  # undecided: every branch is read
            frame[0] = True
            return
        cond = True if name == "else" else _condition(state, args, lists)
        if cond is None:
            frame[0], frame[2] = not frame[1], False
            return
        frame[0] = not frame[1] and cond
        frame[1] = frame[1] or frame[0]


def _condition(state: _State, args: list[_Arg], lists: Path) -> bool | None:
    """An if() condition: simple ones joined by OR / AND (AND binds tighter, as in CMake);
    None when any part that decides it cannot be read."""
    for joiner, decided in (("OR", True), ("AND", False)):
        cuts = [k for k, a in enumerate(args) if a.text == joiner and not a.quoted]
        if cuts:
            bounds = [-1, *cuts, len(args)]
            parts = [_condition(state, args[i + 1:j], lists)
                     for i, j in zip(bounds, bounds[1:], strict=False)]
            if decided in parts:
                return decided
            return None if None in parts else not decided
    return _simple_condition(state, args, lists)


def _simple_condition(state: _State, args: list[_Arg], lists: Path) -> bool | None:
    words = [a.text for a in args]
    negate = bool(words) and words[0] == "NOT"
    words = words[1:] if negate else words
    if len(words) == 2 and words[0] == "DEFINED":
        env = re.fullmatch(r"ENV\{(\w+)\}", words[1])  # an environment variable
        value = env.group(1) in os.environ if env else words[1] in state.vars
    elif len(words) == 3 and words[1] in ("STREQUAL", "MATCHES"):
        a, b = (_operand(state, x, lists) for x in (args[-3], args[-1]))
        if a is None or b is None:
            return None
        try:
            value = a == b if words[1] == "STREQUAL" else re.search(b, a) is not None
        except re.error:
            return None
    else:
        return None
    return value != negate


def _operand(state: _State, arg: _Arg, lists: Path) -> str | None:
    """An if() operand's string: a set variable's value for its bare name, else the text
    expanded (None: it names a variable no file sets)."""
    if not arg.quoted and arg.text in state.vars:
        return ";".join(state.vars[arg.text])
    if _unknown(state, arg.text):
        return None
    return _expand(state, arg.text, lists)


def _command(state: _State, name: str, raw: list[_Arg], lists: Path) -> None:
    if not raw:
        return
    if name == "set":
        values = [a.text for a in _values(state, raw[1:], lists)]
        if "CACHE" in values and "FORCE" not in values and raw[0].text in state.vars:
            return  # a cache entry keeps the value given first (cmake -D, pipev run -D)
        for stop in ("CACHE", "PARENT_SCOPE"):
            if stop in values:
                values = values[:values.index(stop)]
        state.vars[raw[0].text] = values
    elif name == "list" and raw[0].text.upper() == "APPEND" and len(raw) > 1:
        state.vars.setdefault(raw[1].text, []).extend(
            a.text for a in _values(state, raw[2:], lists))
    elif name == "file" and raw[0].text.upper() in ("GLOB", "GLOB_RECURSE") and len(raw) > 1:
        state.vars[raw[1].text] = _glob(state, raw, lists)
    elif name == "include":
        target = _expand(state, raw[0].text, lists)
        path = Path(target) if Path(target).is_absolute() else state.root / target
        if path.is_file() and path.resolve().is_relative_to(state.root.resolve()):
            _read_file(state, path)
    elif name == "add_executable":
        args = [a for a in raw[1:] if a.text not in _EXE_KINDS]
        if args and args[0].text in ("IMPORTED", "ALIAS"):
            return
        target = _expand(state, raw[0].text, lists)
        state.executables.setdefault(target, []).extend(
            (a, lists) for a in _values(state, args, lists))
    elif name in _LIBRARIES or name == "target_sources":
        args = [a for a in raw[1:] if a.text not in _LIB_KINDS and a.text not in _SCOPES]
        if args and args[0].text in ("IMPORTED", "ALIAS"):
            return
        target = _expand(state, raw[0].text, lists)
        table = state.executables if target in state.executables else state.libraries
        table.setdefault(target, []).extend((a, lists) for a in _values(state, args, lists))
    elif name == "target_link_libraries":
        target = _expand(state, raw[0].text, lists)
        state.links.setdefault(target, []).extend(
            a.text for a in _values(state, raw[1:], lists) if a.text not in _SCOPES)
    elif name in ("include_directories", "target_include_directories",
                  "ascendc_include_directories"):
        args = raw if name == "include_directories" else raw[1:]
        for a in _values(state, args, lists):
            if a.text in _SCOPES or "$<" in a.text or _unknown(state, a.text):
                continue
            path = Path(a.text) if Path(a.text).is_absolute() else state.root / a.text
            if path.is_dir():
                state.includes.append(_shown(path, state))
    elif name in ("add_definitions", "add_compile_definitions"):
        for a in _values(state, raw, lists):
            if a.text in _SCOPES or "$<" in a.text or _unknown(state, a.text):
                continue
            if name == "add_definitions":
                if a.text.startswith("-D") and len(a.text) > 2:
                    state.defines.append(a.text[2:])
            else:
                state.defines.append(a.text.removeprefix("-D"))
    elif name in ("target_compile_definitions", "ascendc_compile_definitions"):
        target, scope = _expand(state, raw[0].text, lists), "PRIVATE"
        for a in _values(state, raw[1:], lists):
            if a.text in ("PRIVATE", "PUBLIC", "INTERFACE"):
                scope = a.text
            elif a.text not in _SCOPES and "$<" not in a.text and not _unknown(state, a.text) \
                    and a.text.removeprefix("-D"):
                state.target_defines.setdefault(target, []).append(
                    (scope, a.text.removeprefix("-D")))


def _glob(state: _State, raw: list[_Arg], lists: Path) -> list[str]:
    recurse = raw[0].text.upper() == "GLOB_RECURSE"
    found: list[str] = []
    args = raw[2:]
    k = 0
    while k < len(args):
        word = args[k].text
        if word in ("LIST_DIRECTORIES", "RELATIVE"):
            k += 2
            continue
        if word in ("CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"):
            k += 1
            continue
        pattern = _expand(state, word, lists)
        if not Path(pattern).is_absolute():
            pattern = str(state.root / pattern)
        if recurse:
            head, tail = os.path.split(pattern)
            pattern = os.path.join(head, "**", tail)
        found += sorted(glob.glob(pattern, recursive=recurse))
        k += 1
    return found


def _commands(text: str) -> list[tuple[str, list[_Arg]]]:
    """The commands of a CMake list file: NAME and its arguments (comments, quoted and
    bracket arguments, nested parentheses read as CMake does for the forms above)."""
    out: list[tuple[str, list[_Arg]]] = []
    k, n, line = 0, len(text), 1
    while k < n:
        c = text[k]
        if c == "\n":
            line += 1
            k += 1
            continue
        if c == "#":
            k = _comment_end(text, k)
            continue
        m = _COMMAND.match(text, k)
        if m is None:
            k += 1
            continue
        args, k, line = _arguments(text, m.end(), line)
        out.append((m.group(1), args))
    return out


def _comment_end(text: str, k: int) -> int:
    m = re.match(r"#\[(=*)\[", text[k:])
    if m:
        end = text.find(f"]{m.group(1)}]", k)
        return len(text) if end < 0 else end + len(m.group(1)) + 2
    end = text.find("\n", k)
    return len(text) if end < 0 else end


def _arguments(text: str, k: int, line: int) -> tuple[list[_Arg], int, int]:
    args: list[_Arg] = []
    depth, n = 0, len(text)
    word: list[str] = []

    def flush():
        if word:
            args.append(_Arg("".join(word), False, line))
            word.clear()

    while k < n:
        c = text[k]
        if c == "\n":
            flush()
            line += 1
        elif c.isspace():
            flush()
        elif c == "#":
            flush()
            k = _comment_end(text, k)
            continue
        elif c == '"' and word:  # a quote inside an unquoted argument is a character
            end = text.find('"', k + 1)
            end = n - 1 if end < 0 else end
            word.append(text[k:end + 1])
            line += text.count("\n", k, end + 1)
            k = end + 1
            continue
        elif c == '"':
            flush()
            end = k + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            value = text[k + 1:end]
            args.append(_Arg(value, True, line))
            line += value.count("\n")
            k = end + 1
            continue
        elif c == "(":
            depth += 1
            word.append(c)
        elif c == ")":
            if depth == 0:
                flush()
                return args, k + 1, line
            depth -= 1
            word.append(c)
        else:
            word.append(c)
        k += 1
    flush()
    return args, k, line
