#!/usr/bin/python3
"""Rewrites the verbatim figure blocks of docs/*.md and README.md from the
fresh output of scripts/refresh-figures.sh (the inverse of
check_figures.py, for after a change that moves the figures).

Every compared line of a block (table rows, lines inside a ``` fence; see
check_figures.py) is replaced by the next output line of the same *shape*:
the same text once numbers (with a k / M / G / x / % suffix) are taken out,
so rows keep their model / layer names and their order. `{{REGEX}}` parts
of a document line stay as they are (wall-clock times). A document line
with no output line of its shape is left alone and named, and the block
then needs a hand edit (or the prose around it a new sentence); run
check_figures.py afterwards.

usage: update_figures.py [--doc FILE ...] FIGURES_DIR [NAME ...]
(no NAME: every block whose output exists)."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_figures import CLOSE, OPEN, ROOT  # noqa: E402

NUMBER = r"(?<![\w.])[-+]?(?:\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?)[kKMGx%]?"


def text_regex(text):
    """`text` literally, but any run of blanks for a run of blanks (columns
    padded to their widest number)."""
    return r"\s+".join(re.escape(t) for t in re.split(r"\s+", text))


def shape_regex(literal):
    """A regex for `literal` where every number may be any number."""
    out, pos = [], 0
    for m in re.finditer(NUMBER, literal):
        out.append(text_regex(literal[pos:m.start()]))
        out.append("(" + NUMBER + ")")
        pos = m.end()
    out.append(text_regex(literal[pos:]))
    return "".join(out)


def line_matcher(text):
    """(regex over an output line, list of {{...}} parts of `text`): the
    regex has one group per {{...}} part, in order, besides the number
    groups."""
    parts = re.split(r"(\{\{.*?\}\})", text)
    pattern, kept = [], []
    for p in parts:
        if p.startswith("{{") and p.endswith("}}"):
            pattern.append("(?P<keep%d>%s)" % (len(kept), p[2:-2]))
            kept.append(p)
        else:
            pattern.append(shape_regex(p))
    return re.compile("".join(pattern) + r"\Z"), kept


def rewrite(line, out_line, rx, kept):
    """`out_line` with the parts matched by {{...}} put back."""
    if not kept:
        return out_line
    m = rx.match(out_line)
    pieces, pos = [], 0
    for i, k in enumerate(kept):
        s, e = m.span("keep%d" % i)
        pieces.append(out_line[pos:s])
        pieces.append(k)
        pos = e
    pieces.append(out_line[pos:])
    return "".join(pieces)


def update_block(lines, output, name, path):
    """Rewrites the compared lines of one block in place; returns the
    number of lines left alone."""
    out = [l.rstrip("\n") for l in output]
    cursor, fenced, missed = 0, False, 0
    for i, raw in enumerate(lines):
        text = raw.rstrip("\n")
        if text.strip().startswith("```"):
            fenced = not fenced
            continue
        if not (fenced and text.strip()) and not text.startswith("|"):
            continue
        rx, kept = line_matcher(text)
        for j in range(cursor, len(out)):
            if rx.match(out[j]):
                lines[i] = rewrite(text, out[j], rx, kept) + "\n"
                cursor = j + 1
                break
        else:
            missed += 1
            print(f"{path}: figure {name}: no output line of the shape of: {text}")
    return missed


def main(argv):
    docs = []
    while argv and argv[0] == "--doc":
        docs.append(argv[1])
        argv = argv[2:]
    if not argv:
        sys.exit(__doc__)
    fig_dir, names = argv[0], set(argv[1:])
    if not docs:
        docs = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [
            os.path.join(ROOT, "README.md")]
    missed = 0
    for path in docs:
        with open(path) as f:
            lines = f.readlines()
        start, name = None, None
        for no, line in enumerate(lines):
            m = OPEN.match(line.rstrip("\n"))
            if m:
                start, name = no + 1, m.group(1)
            elif line.strip() == CLOSE and name:
                fig = os.path.join(fig_dir, name + ".txt")
                if (not names or name in names) and os.path.exists(fig):
                    with open(fig) as f:
                        block = lines[start:no]
                        missed += update_block(block, f.readlines(), name, path)
                        lines[start:no] = block
                name = None
        with open(path, "w") as f:
            f.writelines(lines)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
