"""The `(pipev) ` prompt: reads commands from a terminal, a file or a pipe and prints results.

Commands that were not typed at a terminal are echoed after the prompt, so a transcript reads
like a session. Ctrl-C during motion stops it at the next micro-op; at the prompt it only
clears the line.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from typing import TextIO

from .commands import CommandError, Commands, Quit

PROMPT = "(pipev) "


class Repl:
    def __init__(self, commands: Commands, out: TextIO):
        self.commands = commands
        self.out = out
        self.last = ""

    def write(self, lines: list[str]) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def loop(self, lines: Iterator[str] | None) -> None:
        """Read and run commands until `quit` or the end of input. LINES None: the terminal."""
        while True:
            try:
                line = self._read(lines)
            except KeyboardInterrupt:
                self.out.write("^C\n")
                if lines is not None:
                    return
                continue
            if line is None:
                return
            if not self.one(line):
                return

    def _read(self, lines: Iterator[str] | None) -> str | None:
        if lines is None:
            try:
                return input(PROMPT)
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write(PROMPT)
        self.out.flush()
        line = next(lines, None)
        if line is None:
            self.out.write("\n")
            return None
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
            self.write([f"error: {e}"])
        except Exception as e:  # a bug in the debugger must not end the user's session
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
