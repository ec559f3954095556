#!/usr/bin/python3
"""Checks that the verbatim figures in docs/*.md and README.md match the
fresh output of scripts/refresh-figures.sh.

A verbatim figure is a block of a document between

    <!-- figure: NAME -->
    ...
    <!-- /figure -->

where NAME is a figure of scripts/refresh-figures.sh (its output is
FIGURES_DIR/NAME.txt). Inside the block, every table row (a line starting
with "|") and every non-blank line inside a ``` fence must appear in the
output, in the same order (other output lines may come between them, e.g.
the tables of a configuration the document leaves out). Prose in the block
is not compared. As in FileCheck, `{{REGEX}}` in a compared line matches
the regular expression (for wall-clock times: `{{[0-9]+}} s`); the rest of
the line matches literally.

usage: check_figures.py [--doc FILE ...] FIGURES_DIR [NAME ...]
(no NAME: every block; --doc: check these files instead of docs/*.md and
README.md). Exit 1 when a block differs or its output is missing."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPEN = re.compile(r"^<!-- figure: ([\w.-]+) -->\s*$")
CLOSE = "<!-- /figure -->"


def matcher(text):
    """A function telling whether an output line matches document line
    `text` (literal, except {{REGEX}} parts)."""
    if "{{" not in text:
        return lambda line: line == text
    parts = re.split(r"\{\{(.*?)\}\}", text)
    pattern = "".join(re.escape(p) if i % 2 == 0 else "(?:" + p + ")" for i, p in enumerate(parts))
    rx = re.compile(pattern + r"\Z")
    return lambda line: rx.match(line) is not None


def blocks(path):
    """(name, first line number, [(line number, text) compared])."""
    out, cur, fenced = [], None, False
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = OPEN.match(line)
            if m:
                if cur:
                    sys.exit(f"{path}:{no}: figure block inside figure block {cur[0]}")
                cur, fenced = (m.group(1), no, []), False
            elif line.strip() == CLOSE:
                if not cur:
                    sys.exit(f"{path}:{no}: {CLOSE} without an open figure block")
                out.append(cur)
                cur = None
            elif cur:
                if line.startswith("```"):
                    fenced = not fenced
                elif (fenced and line.strip()) or line.startswith("|"):
                    cur[2].append((no, line.rstrip()))
    if cur:
        sys.exit(f"{path}:{cur[1]}: figure block {cur[0]} not closed")
    return out


def main():
    args, docs = sys.argv[1:], []
    while len(args) >= 2 and args[0] == "--doc":
        docs.append(os.path.abspath(args[1]))
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    outdir, wanted = args[0], set(args[1:])
    if not docs:
        docs = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [os.path.join(ROOT, "README.md")]
    bad = checked = 0
    for doc in docs:
        rel = os.path.relpath(doc, ROOT)
        for name, start, lines in blocks(doc):
            if wanted and name not in wanted:
                continue
            out = os.path.join(outdir, name + ".txt")
            if not os.path.exists(out):
                print(f"{rel}:{start}: figure {name}: no output {out} (run scripts/refresh-figures.sh {name})")
                bad += 1
                continue
            with open(out) as f:
                got = [l.rstrip() for l in f.read().splitlines()]
            if not lines:
                print(f"{rel}:{start}: figure {name}: the block has no table row or fenced line to compare")
                bad += 1
                continue
            i = 0
            for no, text in lines:
                match = matcher(text)
                while i < len(got) and not match(got[i]):
                    i += 1
                if i == len(got):
                    print(f"{rel}:{no}: figure {name} is stale: this line is not in {out} "
                          f"(in that order):\n    {text}")
                    bad += 1
                    break
                i += 1
            else:
                checked += 1
    print(f"check_figures: {checked} figure blocks match their output, {bad} differ or are missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
