#!/usr/bin/env python3
"""Where a layer's DMA bytes go, from the program's ISA text.

layer_floor.py says how far a layer's DRAM bytes are above its floor; this
says which of its transfers make them: per layer whose name matches REGEX,
the bytes of

- constant loads: DRAM loads from a constant segment (its `isa.data`,
  replicas included): the filter, once per cluster and per pixel block when
  it is streamed, and padding values (a max pool's -inf, read with zero
  strides);
- map loads: every other DRAM load (the layer's inputs, halos included);
- stores: DRAM writes;
- remote: `remote_load`s over the mesh (another cluster's storage);
- local: `local_copy`s inside a storage unit (a band's tiles).

The first three add up to the layer's DRAM bytes in stats.json. `consts
x` is the constant loads over the layer's weight bytes (its filter read
once: 1.0).

    accel-compile M.onnx --emit=isa -o M.isa
    /usr/bin/python3 scripts/zoo/layer_dmas.py M.isa REGEX
"""
import argparse
import re
import sys

LAYER = re.compile(r"#isa\.layer<(.*)>,?\s*$")
DATA = re.compile(r"isa\.data at (\d+)(?: replicas \[([\d, ]*)\])? = .*: tensor<([\dx]+)x(\w+)>\s*$")
DMA = re.compile(r"isa\.dma\s+(\w+) tag \d+ src (\d+) dst \d+ shape \[([\d, ]*)\].*\blayer (\d+)$")
ELEM_BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "i64": 8}


def field(text, key):
    m = re.search(key + r' = ("([^"]*)"|\d+)', text)
    return m.group(2) if m and m.group(2) is not None else (int(m.group(1)) if m else None)


def read(path):
    """(layers [(name, weight bytes)], constant segments [(lo, hi)], DMAs
    [(kind, src, bytes, layer)]) of an ISA text."""
    layers, segments, dmas = [], [], []
    with open(path) as f:
        for line in f:
            m = LAYER.search(line)
            if m:
                layers.append((field(m.group(1), "name"), field(m.group(1), "weight_bytes") or 0))
                continue
            m = DATA.search(line)
            if m:
                n = ELEM_BYTES.get(m.group(4), 4)
                for d in m.group(3).split("x"):
                    n *= int(d)
                for at in [m.group(1)] + [r for r in (m.group(2) or "").split(",") if r.strip()]:
                    segments.append((int(at), int(at) + n))
                continue
            m = DMA.search(line.strip())
            if m:
                n = 1
                for d in m.group(3).split(","):
                    n *= int(d)
                dmas.append((m.group(1), int(m.group(2)), n, int(m.group(4))))
    return layers, sorted(segments), dmas


def in_segment(segments, addr):
    lo, hi = 0, len(segments)
    while lo < hi:  # the last segment starting at or before addr
        mid = (lo + hi) // 2
        if segments[mid][0] <= addr:
            lo = mid + 1
        else:
            hi = mid
    return lo > 0 and addr < segments[lo - 1][1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("isa")
    ap.add_argument("regex", help="layers whose names match (re.search)")
    ap.add_argument("--elem-bytes", type=int, default=4,
                    help="bytes per element of the DMAs (f32 programs: 4)")
    a = ap.parse_args(argv)
    layers, segments, dmas = read(a.isa)
    chosen = {i for i, (name, _) in enumerate(layers) if re.search(a.regex, name or "")}
    if not chosen:
        sys.exit(f"layer_dmas: no layer matches '{a.regex}'")
    kinds = ("consts", "maps", "stores", "remote", "local")
    sums = {i: dict.fromkeys(kinds, 0) for i in chosen}
    for kind, src, n, layer in dmas:
        if layer not in chosen:
            continue
        key = {"store": "stores", "remote_load": "remote", "local_copy": "local"}.get(kind)
        if kind == "load":
            key = "consts" if in_segment(segments, src) else "maps"
        if key:
            sums[layer][key] += n * a.elem_bytes
    print(f"{'layer (MB)':32} {'consts':>8} {'maps':>8} {'stores':>8} {'DRAM':>8} "
          f"{'remote':>8} {'local':>8} {'consts x':>9}")
    for i in sorted(chosen):
        s = sums[i]
        dram = s["consts"] + s["maps"] + s["stores"]
        times = s["consts"] / layers[i][1] if layers[i][1] else 0
        print(f"{layers[i][0][:32]:32} " + " ".join(f"{s[k] / 1e6:8.1f}" for k in kinds[:3])
              + f" {dram / 1e6:8.1f} {s['remote'] / 1e6:8.1f} {s['local'] / 1e6:8.1f}"
              + f" {times:9.1f}")


if __name__ == "__main__":
    main()
