#!/usr/bin/env python3
"""DRAM bytes of each layer against its layer-by-layer floor.

The floor of a layer is what it must move when every layer reads its inputs
from DRAM and writes its result there, each once: the result bytes of the
layers it reads (and the network inputs it reads: its compulsory bytes), its
own result, and its weights. A layer above its floor re-reads something
(halo rows, a filter that does not fit the storage and is streamed again per
pixel block, a map read by every cluster) or writes copies (the written
buffers copied onto a second memory channel). A layer below it kept an
input or its result on chip. The whole network's floor is about its DRAM
bytes without cross-layer fusion (docs/zoo.md, "DRAM / compulsory").

    accel-compile M.onnx --emit=isa -o M.isa      # the layer table
    accel-compile M.onnx -o M.bin && accel-run M.bin ... --output-dir D
    /usr/bin/python3 scripts/zoo/layer_floor.py M.isa D/stats.json [--top N]
"""
import argparse
import json
import re
import sys

LAYER = re.compile(r"#isa\.layer<(.*)>,?\s*$")


def field(text, name, default=0):
    m = re.search(name + r" = (\d+)", text)
    return int(m.group(1)) if m else default


def read_layer_table(path):
    """(output_bytes, inputs, compulsory_bytes) per layer of the ISA text."""
    table = []
    with open(path) as f:
        for line in f:
            if "isa.cluster" in line:
                break  # the table precedes the streams
            m = LAYER.search(line)
            if not m:
                continue
            attrs = m.group(1)
            ins = re.search(r"inputs = \[([^\]]*)\]", attrs)
            out = field(attrs, "output_bytes")
            compulsory = field(attrs, "compulsory_bytes")
            # A layer writing a network output: its compulsory bytes count
            # that write, which its result already does.
            if "output_symbols" in attrs:
                compulsory = max(0, compulsory - out)
            name = re.search(r'name = "((?:[^"\\]|\\.)*)"', attrs)
            table.append((out,
                          [int(x) for x in ins.group(1).split(",")] if ins else [],
                          compulsory, name.group(1) if name else ""))
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("isa")
    ap.add_argument("stats")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--bytes", action="store_true",
                    help="bytes instead of MB (small models, tests)")
    args = ap.parse_args()
    unit, name = (1, "B") if args.bytes else (1e6, "MB")
    table = read_layer_table(args.isa)
    layers = json.load(open(args.stats))["layers"]
    if len(table) != len(layers):
        sys.exit(f"layer_floor: {args.isa} has {len(table)} layers, "
                 f"{args.stats} {len(layers)}: not the same compilation")
    for i, layer in enumerate(layers):
        if table[i][3] != layer["name"]:
            sys.exit(f"layer_floor: layer {i} is '{table[i][3]}' in "
                     f"{args.isa} but '{layer['name']}' in {args.stats}: "
                     "not the same compilation")
    rows, total, floor = [], 0, 0
    for i, layer in enumerate(layers):
        out, ins, compulsory, _ = table[i]
        need = out + sum(table[j][0] for j in ins) + compulsory
        moved = layer["dram_bytes_read"] + layer["dram_bytes_written"]
        total += moved
        floor += need
        rows.append((moved - need, layer["name"], layer["op"], moved, need))
    rows.sort(key=lambda r: -r[0])
    digits = 0 if args.bytes else 1
    print(f"{'excess ' + name:>10} {'DRAM ' + name:>9} {'floor ' + name:>9}  layer")
    for excess, layer, op, moved, need in rows[:args.top]:
        print(f"{excess / unit:10.{digits}f} {moved / unit:9.{digits}f} "
              f"{need / unit:9.{digits}f}  {layer} ({op})")
    above = sum(r[0] for r in rows if r[0] > 0)
    print(f"layers: {total / unit:.{digits}f} {name} moved, floor "
          f"{floor / unit:.{digits}f} {name}, {above / unit:.{digits}f} {name} "
          f"above their floors")


if __name__ == "__main__":
    main()
