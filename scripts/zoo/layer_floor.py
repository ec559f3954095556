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

With `--segment NAME=REGEX` (repeatable) it also prints, per segment (the
layers whose names REGEX matches), the bytes its layers moved, the sum of
their layer-by-layer floors and the segment's *chain floor*: what the
segment must move if every map inside it stayed on chip (a depth-first
chain of its layers): its weights once, the network inputs and the results
of other layers it reads, each once, and its results that other layers or
the network's outputs read, each once. The whole network as one segment
has its compulsory bytes as chain floor. The chain floor ignores the
storage such a chain needs (docs/passes.md, "What a chain kernel would
save").

A row band of a depth-first-rows chain reads only some rows of its
producer's result, but the layer table names the producer, not the rows:
a band's floor counts the whole result, so the floors of banded layers
overcount (the FPN detector's 241 head bands: a floor of 630 MB). Chain
floors count each result once and are not affected.
"""
import argparse
import json
import re
import sys

LAYER = re.compile(r"#isa\.layer<(.*)>,?\s*$")


def field(text, name, default=0):
    m = re.search(name + r" = (\d+)", text)
    return int(m.group(1)) if m else default


class Layer:
    """One entry of the layer table."""

    def __init__(self, attrs):
        ins = re.search(r"inputs = \[([^\]]*)\]", attrs)
        syms = re.search(r"input_symbols = \[([^\]]*)\]", attrs)
        name = re.search(r'name = "((?:[^"\\]|\\.)*)"', attrs)
        self.name = name.group(1) if name else ""
        self.out = field(attrs, "output_bytes")
        self.inputs = [int(x) for x in ins.group(1).split(",")] if ins else []
        self.input_symbols = re.findall(r'"([^"]*)"', syms.group(1)) if syms else []
        self.weights = field(attrs, "weight_bytes")
        self.writes_output = "output_symbols" in attrs
        compulsory = field(attrs, "compulsory_bytes")
        # A layer writing a network output: its compulsory bytes count
        # that write, which its result already does.
        if self.writes_output:
            compulsory = max(0, compulsory - self.out)
        self.compulsory = compulsory


IO = re.compile(r'isa\.io\s+input "((?:[^"\\]|\\.)*)".*: tensor<([0-9x]*)x?[a-z][a-z0-9]*>')


def read_layer_table(path):
    """The layers of the ISA text, and the bytes of each network input."""
    table, inputs = [], {}
    with open(path) as f:
        for line in f:
            if "isa.cluster" in line:
                break  # the table and the symbols precede the streams
            m = LAYER.search(line)
            if m:
                table.append(Layer(m.group(1)))
                continue
            m = IO.search(line)
            if m:
                elems = 1
                for d in filter(None, m.group(2).split("x")):
                    elems *= int(d)
                inputs[m.group(1)] = 4 * elems  # every element a 4-byte word
    return table, inputs


def chain_floor(table, inputs, members):
    """Bytes a chain of the layers `members` moves with its maps on chip."""
    weights = sum(table[i].weights for i in members)
    symbols = {s for i in members for s in table[i].input_symbols}
    producers = {j for i in members for j in table[i].inputs} - members
    read_outside = {j for i, layer in enumerate(table) if i not in members
                    for j in layer.inputs}
    results = {i for i in members
               if i in read_outside or table[i].writes_output}
    return (weights + sum(inputs.get(s, 0) for s in symbols)
            + sum(table[j].out for j in producers)
            + sum(table[i].out for i in results))


def print_segments(table, inputs, layers, segments, unit, name, digits):
    print(f"{'segment':<12} {'layers':>6} {'DRAM ' + name:>9} "
          f"{'floor ' + name:>9} {'chain ' + name:>9}")
    for label, pattern in segments:
        members = {i for i, layer in enumerate(table)
                   if re.search(pattern, layer.name)}
        if not members:
            sys.exit(f"layer_floor: segment '{label}': no layer matches "
                     f"'{pattern}'")
        moved = sum(layers[i]["dram_bytes_read"] + layers[i]["dram_bytes_written"]
                    for i in members)
        floor = sum(layer_floor(table, i) for i in members)
        chain = chain_floor(table, inputs, members)
        print(f"{label:<12} {len(members):>6} {moved / unit:9.{digits}f} "
              f"{floor / unit:9.{digits}f} {chain / unit:9.{digits}f}")


def layer_floor(table, i):
    layer = table[i]
    return layer.out + sum(table[j].out for j in layer.inputs) + layer.compulsory


def segment_arg(text):
    label, sep, pattern = text.partition("=")
    if not sep or not label or not pattern:
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=REGEX")
    try:
        re.compile(pattern)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"'{pattern}': {e}")
    return label, pattern


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("isa")
    ap.add_argument("stats")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--bytes", action="store_true",
                    help="bytes instead of MB (small models, tests)")
    ap.add_argument("--segment", type=segment_arg, action="append", default=[],
                    metavar="NAME=REGEX",
                    help="also the chain floor of the layers whose names "
                         "match REGEX (repeatable)")
    args = ap.parse_args()
    unit, name = (1, "B") if args.bytes else (1e6, "MB")
    table, inputs = read_layer_table(args.isa)
    layers = json.load(open(args.stats))["layers"]
    if len(table) != len(layers):
        sys.exit(f"layer_floor: {args.isa} has {len(table)} layers, "
                 f"{args.stats} {len(layers)}: not the same compilation")
    for i, layer in enumerate(layers):
        if table[i].name != layer["name"]:
            sys.exit(f"layer_floor: layer {i} is '{table[i].name}' in "
                     f"{args.isa} but '{layer['name']}' in {args.stats}: "
                     "not the same compilation")
    rows, total, floor = [], 0, 0
    for i, layer in enumerate(layers):
        need = layer_floor(table, i)
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
    if args.segment:
        print_segments(table, inputs, layers, args.segment, unit, name, digits)


if __name__ == "__main__":
    main()
