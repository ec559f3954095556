"""One progress line on a terminal, for the benchmarks and test runners
(issue 15). The same rules as accel/Support/TerminalProgress.h: stderr,
rewritten in place at most ten times a second, shown only when stdout and
stderr are terminals and the environment has no CI variable, so logs,
pipes and tests never see it.

    progress = Progress("models", len(models))
    for i, m in enumerate(models):
        progress.step(i, m)
        ...
        progress.clear()          # before printing a row
    progress.clear()
"""
import os
import sys
import time


def wanted():
    return (sys.stdout.isatty() and sys.stderr.isatty()
            and "CI" not in os.environ)


class Progress:
    def __init__(self, what, total=0):
        self.what, self.total = what, total
        self.enabled = wanted()
        self.shown = False
        self.last = time.monotonic() + 0.1  # nothing for a quick run

    def step(self, i, label=""):
        total = f" / {self.total}" if self.total else ""
        self.show(f"{self.what}: {i + 1}{total} {label}")

    def show(self, text):
        now = time.monotonic()
        if not self.enabled or now < self.last + 0.1:
            return
        self.last = now
        self.shown = True
        sys.stderr.write(f"\r{text}\033[K")
        sys.stderr.flush()

    def clear(self):
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        self.shown = False
