#!/usr/bin/env python3
"""Runs every ```sh and ```python block of a Markdown guide, in order, in
one fresh directory (docs/user-guide.md: the guide's commands cannot rot).

Usage: run_guide.py GUIDE.md BIN_DIR SRC_DIR
Prints "block N (LANG): ok" per block; stops at the first failing block
with its output and exits 1.
"""
import os
import re
import subprocess
import sys
import tempfile

guide, bin_dir, src = sys.argv[1:4]
blocks = re.findall(r"```(sh|python)\n(.*?)```", open(guide).read(), re.S)
env = dict(os.environ, ACCEL_SRC=os.path.abspath(src),
           PATH=os.path.abspath(bin_dir) + os.pathsep + os.environ["PATH"])
with tempfile.TemporaryDirectory(prefix="accel-guide-") as work:
    for n, (lang, code) in enumerate(blocks, 1):
        cmd = (["bash", "-euo", "pipefail", "-c", code] if lang == "sh"
               else ["/usr/bin/python3", "-c", code])
        r = subprocess.run(cmd, cwd=work, env=env, capture_output=True,
                           text=True, timeout=600)
        if r.returncode:
            print(f"block {n} ({lang}): FAILED (exit {r.returncode})\n"
                  f"{code}\n--- output ---\n{r.stdout}{r.stderr}")
            sys.exit(1)
        print(f"block {n} ({lang}): ok")
print(f"{len(blocks)} blocks ran")
