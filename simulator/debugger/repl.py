"""The `(pipev) ` prompt: reads commands from a terminal, a file or a pipe and prints results.

Commands that were not typed at a terminal are echoed after the prompt, so a transcript reads
like a session. Ctrl-C during motion stops it at the next micro-op; at the prompt it only
clears the line.

At a terminal the line is read by prompt_toolkit (Tab completion of commands, tensors,
registers and labels; history across sessions in the user's cache directory), or by readline
with the same completion and history file where prompt_toolkit is not installed or the
terminal cannot take it (TERM=dumb).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from .commands import CommandError, Commands, Quit

PROMPT = "(pipev) "
HISTORY_LINES = 1000


def history_file() -> Path:
    """$XDG_CACHE_HOME/pipev/debug_history (~/.cache when unset)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "pipev" / "debug_history"


def terminal_reader(commands: Commands) -> Callable[[str], str]:
    """input()-like: the best line editor available, with completion and history."""
    from .complete import candidates

    path = history_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = None
    if os.environ.get("TERM") != "dumb":
        try:
            return _prompt_toolkit(commands, candidates, path)
        except ImportError:
            pass
    return _readline(commands, candidates, path)


def _prompt_toolkit(commands, candidates, path) -> Callable[[str], str]:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    class DebuggerCompleter(Completer):
        def get_completions(self, document, complete_event):
            line = document.text_before_cursor
            word = len(line) - len(line.rstrip("$_abcdefghijklmnopqrstuvwxyz"
                                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
            for c in candidates(commands, line):
                yield Completion(c, start_position=-word)

    class KeptHistory(FileHistory):
        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:  # an unwritable cache directory costs the history, not the session
                pass

    history = KeptHistory(str(path)) if path is not None else InMemoryHistory()
    session = PromptSession(history=history, completer=DebuggerCompleter(),
                            complete_while_typing=False)
    return lambda prompt: session.prompt(prompt)


def _readline(commands, candidates, path) -> Callable[[str], str]:
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        return input
    import atexit

    def complete(text: str, state: int) -> str | None:
        found = candidates(commands, readline.get_line_buffer()[:readline.get_endidx()])
        return found[state] if state < len(found) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t,=()[]+-*/<>!&|")
    readline.parse_and_bind("tab: complete")
    if path is not None:
        try:
            readline.read_history_file(path)
        except OSError:
            pass
        readline.set_history_length(HISTORY_LINES)
        atexit.register(_save_history, readline, path)
    return input


def _save_history(readline, path: Path) -> None:
    try:
        readline.write_history_file(path)
    except OSError:
        pass


class Repl:
    def __init__(self, commands: Commands, out: TextIO, reader: Callable[[str], str] = input):
        self.commands = commands
        self.out = out
        self.last = ""
        self.reader = reader
        self.failed = False  # a command failed (`--batch` exits 1)

    def write(self, lines: list[str]) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def loop(self, lines: Iterator[str] | None, at_end: bool = True) -> bool:
        """Read and run commands until `quit` or the end of input (LINES None: the terminal);
        False when the session ended (`quit`, Ctrl-C in a script). AT_END: the end of LINES
        ends the session (else more input follows: the prompt is not closed)."""
        while True:
            try:
                line = self._read(lines, at_end)
            except KeyboardInterrupt:
                self.out.write("^C\n")
                if lines is not None:
                    return False
                continue
            if line is None:
                return True
            if not self.one(line):
                return False

    def _read(self, lines: Iterator[str] | None, at_end: bool = True) -> str | None:
        if lines is None:
            try:
                return self.reader(PROMPT)
            except EOFError:
                self.out.write("\n")
                return None
        line = next(lines, None)
        if line is None:
            if at_end:
                self.out.write(PROMPT + "\n")
                self.out.flush()
            return None
        self.out.write(PROMPT)
        line = line.rstrip("\r\n")
        self.out.write(line + "\n")
        return line

    def one(self, line: str) -> bool:
        """Run one command line; False when the session ends."""
        text = line.strip()
        if text.startswith("#"):
            return True
        if not text:
            text = self.last
            if not text:
                return True
        self.last = text
        try:
            with _interrupts(self.commands):
                self.write(self.commands.execute(text))
        except Quit:
            return False
        except CommandError as e:
            self.failed = True
            self.write([f"error: {e}"])
        except Exception as e:  # a bug in the debugger must not end the user's session
            self.failed = True
            self.write([f"internal error: {type(e).__name__}: {e}"])
        return True


class _interrupts:
    """While a command runs, Ctrl-C asks the session to stop at the next micro-op."""

    def __init__(self, commands: Commands):
        self.session = commands.s
        self.saved = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.saved = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame) -> None:
        self.session.interrupted = True

    def __exit__(self, *exc) -> None:
        if self.saved is not None:
            signal.signal(signal.SIGINT, self.saved)
