#!/usr/bin/python3
"""End-to-end numerical tests of graph-dialect ops: each case is a small
graph module compiled with accel-compile, simulated with accel-run and
compared with a numpy reference. Prints one line per case and exits 1 on
any mismatch."""
import math
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, ty  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(3)


def erf(x):
    return np.vectorize(math.erf)(x).astype(np.float32)


def softmax(x, axis, log=False):
    m = x.max(axis=axis, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(axis=axis, keepdims=True)
    return (x - m - np.log(s)) if log else e / s


CASES = []


def case(name, body, args, ref, out_shape, out_et="f32"):
    CASES.append((name, body, args, ref, out_shape, out_et))


x34 = rng.standard_normal((3, 4)).astype(np.float32)
x4 = rng.standard_normal((4,)).astype(np.float32)
pos34 = (np.abs(x34) + 0.5).astype(np.float32)
x2345 = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)

for fn, ref, inp, attrs in [
    ("exp", np.exp, x34, ""), ("log", np.log, pos34, ""), ("sqrt", np.sqrt, pos34, ""),
    ("neg", np.negative, x34, ""), ("abs", np.abs, x34, ""), ("erf", erf, x34, ""),
    ("sigmoid", lambda v: 1 / (1 + np.exp(-v)), x34, ""), ("tanh", np.tanh, x34, ""),
    ("floor", np.floor, x34, ""), ("ceil", np.ceil, x34, ""), ("sign", np.sign, x34, ""),
    ("reciprocal", lambda v: 1 / v, pos34, ""),
    ("softplus", lambda v: np.log1p(np.exp(v)), x34, ""),
    ("leaky_relu", lambda v: np.where(v < 0, 0.1 * v, v), x34, "{alpha = 0.1 : f32}"),
    ("selu", lambda v: 1.0507 * np.where(v < 0, 1.6733 * (np.exp(v) - 1), v), x34,
     "{alpha = 1.6733 : f32, beta = 1.0507 : f32}"),
    ("hard_sigmoid", lambda v: np.clip(0.2 * v + 0.5, 0, 1), x34,
     "{alpha = 0.2 : f32, beta = 0.5 : f32}"),
    ("clip", lambda v: np.clip(v, -0.5, 0.5), x34, "{alpha = -0.5 : f32, beta = 0.5 : f32}"),
    ("hard_swish", lambda v: v * np.clip(v / 6 + 0.5, 0, 1), x34, ""),
]:
    case(f"unary_{fn}",
         f"%r = graph.unary {fn} %a {attrs} : {ty((3, 4))}", [inp], ref, (3, 4))

for fn, ref in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                ("div", np.divide), ("max", np.maximum), ("min", np.minimum),
                ("prelu", lambda a, b: np.where(a < 0, a * b, a))]:
    case(f"binary_{fn}_broadcast",
         f"%r = graph.binary {fn} %a, %b : ({ty((3, 4))}, {ty((4,))}) -> {ty((3, 4))}",
         [x34, x4], ref, (3, 4))
case("binary_pow", f"%r = graph.binary pow %a, %b : ({ty((3, 4))}, {ty((3, 4))}) -> {ty((3, 4))}",
     [pos34, x34], np.power, (3, 4))
case("binary_less", f"%r = graph.binary less %a, %b : ({ty((3, 4))}, {ty((4,))}) -> {ty((3, 4), 'i1')}",
     [x34, x4], lambda a, b: (a < b).astype(np.float32), (3, 4), "i1")

for fn, ref, axes, keep in [
    ("sum", lambda v: v.sum(axis=(1, 3), keepdims=True), [1, 3], True),
    ("mean", lambda v: v.mean(axis=(0,), keepdims=False), [0], False),
    ("max", lambda v: v.max(axis=(2,), keepdims=True), [2], True),
    ("min", lambda v: v.min(axis=(1, 2, 3), keepdims=False), [1, 2, 3], False),
    ("l2", lambda v: np.sqrt((v * v).sum(axis=(3,), keepdims=True)), [3], True),
    ("log_sum_exp", lambda v: np.log(np.exp(v).sum(axis=(1,), keepdims=True)), [1], True),
]:
    out = list(ref(x2345).shape)
    case(f"reduce_{fn}",
         f"%r = graph.reduce {fn} %a {{axes = array<i64: {', '.join(map(str, axes))}>, keepdims = {str(keep).lower()}}} : ({ty((2, 3, 4, 5))}) -> {ty(out)}",
         [x2345], ref, tuple(out))
big = rng.standard_normal((2, 3, 150, 160)).astype(np.float32)  # rows of 24000
for fn, ref, axes in [("sum", lambda v: v.sum(axis=(2, 3), keepdims=True), [2, 3]),
                      ("mean", lambda v: v.mean(axis=(1, 2, 3), keepdims=True), [1, 2, 3]),
                      ("l2", lambda v: np.sqrt((v.astype(np.float64) ** 2).sum(axis=(0, 2, 3), keepdims=True)), [0, 2, 3]),
                      ("max", lambda v: v.max(axis=(2, 3), keepdims=True), [2, 3])]:
    out = list(ref(big).shape)
    case(f"reduce_large_{fn}",
         f"%r = graph.reduce {fn} %a {{axes = array<i64: {', '.join(map(str, axes))}>, keepdims = true}} : ({ty(big.shape)}) -> {ty(out)}",
         [big], ref, tuple(out))
case("reduce_argmax", f"%r = graph.reduce argmax %a {{axes = array<i64: 2>, keepdims = false}} : ({ty((2, 3, 4, 5))}) -> {ty((2, 3, 5), 'i64')}",
     [x2345], lambda v: v.argmax(axis=2).astype(np.float32), (2, 3, 5), "i64")

for axis in [0, 1, 3]:
    case(f"softmax_axis{axis}", f"%r = graph.softmax %a {{axis = {axis}}} : {ty((2, 3, 4, 5))}",
         [x2345], lambda v, a=axis: softmax(v, a), (2, 3, 4, 5))
case("logsoftmax_axis2", f"%r = graph.softmax %a {{axis = 2, log = true}} : {ty((2, 3, 4, 5))}",
     [x2345], lambda v: softmax(v, 2, True), (2, 3, 4, 5))

wide = (rng.standard_normal((3, 20000, 2)) * 3).astype(np.float32)  # axis 1 > one PE's share
case("softmax_large_axis1", f"%r = graph.softmax %a {{axis = 1}} : {ty(wide.shape)}",
     [wide], lambda v: softmax(v.astype(np.float64), 1), wide.shape)
case("logsoftmax_large_axis1", f"%r = graph.softmax %a {{axis = 1, log = true}} : {ty(wide.shape)}",
     [wide], lambda v: softmax(v.astype(np.float64), 1, True), wide.shape)

cond = (rng.standard_normal((3, 4)) > 0).astype(np.float32)
case("where", f"%r = graph.where %a, %b, %c : ({ty((3, 4), 'i1')}, {ty((3, 4))}, {ty((4,))}) -> {ty((3, 4))}",
     [cond, x34, x4], lambda c, a, b: np.where(c != 0, a, b), (3, 4))
case("concat", f"%r = graph.concat %a, %b {{axis = 1}} : ({ty((3, 4))}, {ty((3, 4))}) -> {ty((3, 8))}",
     [x34, pos34], lambda a, b: np.concatenate([a, b], 1), (3, 8))
case("slice_reverse", f"%r = graph.slice %a {{offsets = array<i64: 2, 1>, strides = array<i64: -1, 2>}} : ({ty((3, 4))}) -> {ty((3, 2))}",
     [x34], lambda a: a[::-1, 1::2], (3, 2))
case("broadcast", f"%r = graph.broadcast %a : ({ty((4,))}) -> {ty((2, 3, 4))}",
     [x4], lambda b: np.broadcast_to(b, (2, 3, 4)), (2, 3, 4))
case("tile", f"%r = graph.tile %a {{repeats = array<i64: 2, 3>}} : ({ty((3, 4))}) -> {ty((6, 12))}",
     [x34], lambda a: np.tile(a, (2, 3)), (6, 12))
for mode, npmode, extra in [("constant", "constant", "{pads = array<i64: 1, 0, 2, 3>, value = 1.5 : f32}"),
                            ("reflect", "reflect", "{pads = array<i64: 2, 1, 1, 3>}"),
                            ("edge", "edge", "{pads = array<i64: 0, 2, 1, 1>}")]:
    pads = [int(v) for v in extra.split("array<i64: ")[1].split(">")[0].split(", ")]
    out = (3 + pads[0] + pads[2], 4 + pads[1] + pads[3])
    kw = {"constant_values": 1.5} if mode == "constant" else {}
    case(f"pad_{mode}", f"%r = graph.pad %a mode {mode} {extra} : ({ty((3, 4))}) -> {ty(out)}",
         [x34], lambda a, p=pads, m=npmode, k=kw: np.pad(a, ((p[0], p[2]), (p[1], p[3])), mode=m, **k), out)

def pool_ref(x, kind, k, s, p, ceil, incl, d=(1, 1)):
    n, c, h, w = x.shape
    def ext(i, kk, ss, p0, p1, dd):
        span = dd * (kk - 1) + 1
        o = ((i + p0 + p1 - span + (ss - 1 if ceil else 0)) // ss) + 1
        if ceil and (o - 1) * ss >= i + p0:
            o -= 1
        return o
    oh, ow = ext(h, k[0], s[0], p[0], p[2], d[0]), ext(w, k[1], s[1], p[1], p[3], d[1])
    y = np.zeros((n, c, oh, ow), np.float64)
    for a in range(oh):
        for b in range(ow):
            vals, cnt = [], 0
            for i in range(k[0]):
                for j in range(k[1]):
                    hh, ww = a * s[0] + i * d[0] - p[0], b * s[1] + j * d[1] - p[1]
                    inside = 0 <= hh < h and 0 <= ww < w
                    if incl and -p[0] <= hh < h + p[2] and -p[1] <= ww < w + p[3]:
                        cnt += 1
                    elif not incl and inside:
                        cnt += 1
                    if inside:
                        vals.append(x[:, :, hh, ww])
            st = np.stack(vals)
            y[:, :, a, b] = st.max(0) if kind == "max" else st.sum(0) / cnt
    return y


x1 = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
for kind, k, st_, p, ceil, incl in [("max", (3, 3), (2, 2), (1, 1, 1, 1), False, False),
                                     ("max", (2, 2), (2, 2), (0, 0, 0, 0), True, False),
                                     ("avg", (3, 3), (2, 2), (1, 0, 1, 2), False, False),
                                     ("avg", (3, 2), (2, 1), (1, 1, 1, 1), True, True)]:
    out = pool_ref(x1, kind, k, st_, p, ceil, incl).shape
    attrs = (f"kernel = array<i64: {k[0]}, {k[1]}>, strides = array<i64: {st_[0]}, {st_[1]}>, "
             f"pads = array<i64: {', '.join(map(str, p))}>, ceil_mode = {str(ceil).lower()}, "
             f"count_include_pad = {str(incl).lower()}")
    case(f"pool_{kind}_{k[0]}x{k[1]}_{'ceil' if ceil else 'floor'}_{'incl' if incl else 'excl'}",
         f"%r = graph.pool2d {kind} %a {{{attrs}}} : ({ty(x1.shape)}) -> {ty(out)}",
         [x1], lambda v, a=(kind, k, st_, p, ceil, incl): pool_ref(v, *a), out)

sc = rng.standard_normal(3).astype(np.float32)
bi = rng.standard_normal(3).astype(np.float32)
mu = rng.standard_normal(3).astype(np.float32)
var = (np.abs(rng.standard_normal(3)) + 0.1).astype(np.float32)
case("batch_norm",
     f"%s = arith.constant dense<{sc.tolist()}> : {ty((3,))}\n  %bb = arith.constant dense<{bi.tolist()}> : {ty((3,))}\n"
     f"  %m = arith.constant dense<{mu.tolist()}> : {ty((3,))}\n  %v = arith.constant dense<{var.tolist()}> : {ty((3,))}\n"
     f"  %r = graph.batch_norm %a, %s, %bb, %m, %v {{epsilon = 1.0e-5 : f32}} : ({ty(x1.shape)}, {ty((3,))}, {ty((3,))}, {ty((3,))}, {ty((3,))}) -> {ty(x1.shape)}",
     [x1], lambda v: (v - mu.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5) * sc.reshape(1, 3, 1, 1) + bi.reshape(1, 3, 1, 1),
     x1.shape)

wc = rng.standard_normal((3, 3, 3, 3)).astype(np.float32)


def conv_bn_ref(v):
    n, c, h, w_ = v.shape
    vp = np.pad(v, ((0, 0), (0, 0), (1, 1), (1, 1))).astype(np.float64)
    y = np.zeros((n, 3, h, w_))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", vp[:, :, i:i + h, j:j + w_], wc[:, :, i, j])
    a = sc / np.sqrt(var + 1e-5)
    return (y - mu.reshape(1, 3, 1, 1)) * a.reshape(1, 3, 1, 1) + bi.reshape(1, 3, 1, 1)


# fold-batch-norm folds this pair into one conv2d in the default pipeline.
case("conv_batch_norm_folded",
     f"%w = arith.constant dense<{wc.tolist()}> : {ty(wc.shape)}\n"
     f"  %c = graph.conv2d %a, %w {{pads = array<i64: 1, 1, 1, 1>}} : ({ty(x1.shape)}, {ty(wc.shape)}) -> {ty(x1.shape)}\n"
     f"  %s = arith.constant dense<{sc.tolist()}> : {ty((3,))}\n  %bb = arith.constant dense<{bi.tolist()}> : {ty((3,))}\n"
     f"  %m = arith.constant dense<{mu.tolist()}> : {ty((3,))}\n  %v = arith.constant dense<{var.tolist()}> : {ty((3,))}\n"
     f"  %r = graph.batch_norm %c, %s, %bb, %m, %v {{epsilon = 1.0e-5 : f32}} : ({ty(x1.shape)}, {ty((3,))}, {ty((3,))}, {ty((3,))}, {ty((3,))}) -> {ty(x1.shape)}",
     [x1], conv_bn_ref, x1.shape)


def conv_transpose_ref(x, w, s, p, outpad, groups=1):
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    oh = s[0] * (h - 1) + outpad[0] + kh - p[0] - p[2]
    ow = s[1] * (wd - 1) + outpad[1] + kw - p[1] - p[3]
    full = np.zeros((n, og * groups, s[0] * (h - 1) + kh + outpad[0], s[1] * (wd - 1) + kw + outpad[1]))
    cg = c // groups
    for g in range(groups):
        for i in range(h):
            for j in range(wd):
                full[:, g * og:(g + 1) * og, i * s[0]:i * s[0] + kh, j * s[1]:j * s[1] + kw] += np.einsum(
                    "nc,cokl->nokl", x[:, g * cg:(g + 1) * cg, i, j], w[g * cg:(g + 1) * cg])
    return full[:, :, p[0]:p[0] + oh, p[1]:p[1] + ow]


xt = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
wt = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
for s_, p_, op_ in [((1, 1), (0, 0, 0, 0), (0, 0)), ((2, 2), (1, 1, 1, 1), (1, 1)), ((3, 2), (1, 2, 1, 2), (0, 0))]:
    out = conv_transpose_ref(xt, wt, s_, p_, op_).shape
    case(f"conv_transpose_s{s_[0]}{s_[1]}_p{''.join(map(str, p_))}",
         f"%r = graph.conv_transpose2d %a, %b {{strides = array<i64: {s_[0]}, {s_[1]}>, pads = array<i64: {', '.join(map(str, p_))}>, "
         f"output_padding = array<i64: {op_[0]}, {op_[1]}>}} : ({ty(xt.shape)}, {ty(wt.shape)}) -> {ty(out)}",
         [xt, wt], lambda a, b, s2=s_, p2=p_, o2=op_: conv_transpose_ref(a, b, s2, p2, o2), out)



def conv_transpose_full_ref(x, w, b, s, p, outpad, dil, groups):
    """ONNX ConvTranspose: strides, pads, dilations, output_padding, group,
    optional bias."""
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    fh = s[0] * (h - 1) + dil[0] * (kh - 1) + 1
    fw = s[1] * (wd - 1) + dil[1] * (kw - 1) + 1
    oh = fh + outpad[0] - p[0] - p[2]
    ow = fw + outpad[1] - p[1] - p[3]
    full = np.zeros((n, og * groups, max(fh, p[0] + oh), max(fw, p[1] + ow)))
    cg = c // groups
    for g in range(groups):
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for e in range(kw):
                        full[:, g * og:(g + 1) * og, i * s[0] + a * dil[0], j * s[1] + e * dil[1]] += np.einsum(
                            "nc,co->no", x[:, g * cg:(g + 1) * cg, i, j], w[g * cg:(g + 1) * cg, :, a, e])
    y = full[:, :, p[0]:p[0] + oh, p[1]:p[1] + ow]
    if b is not None:
        y = y + b.reshape(1, -1, 1, 1)
    return y


# Non-overlapping taps (stride > dilation * (kernel - 1)): the GEMM lowering
# with depth-to-space stores (LowerWindow.cpp); the last two overlap
# (zero-stuffing). (name, x shape, Cout/g, kernel, strides, pads,
# output_padding, dilations, groups, bias)
for nm, xsh, og, k, s_, p_, op_, d_, g_, bias in [
    ("k2s2_b2_bias", (2, 3, 4, 5), 4, (2, 2), (2, 2), (0, 0, 0, 0), (0, 0), (1, 1), 1, True),
    ("k2s2_g2_bias", (1, 4, 3, 3), 3, (2, 2), (2, 2), (0, 0, 0, 0), (0, 0), (1, 1), 2, True),
    ("k2s2_cout1", (1, 16, 6, 7), 1, (2, 2), (2, 2), (0, 0, 0, 0), (0, 0), (1, 1), 1, True),
    # Og*KH*KW < Cg / 4: the bias as the accumulators' initial values.
    ("k2s2_cout1_bias_init", (2, 40, 5, 6), 1, (2, 2), (2, 2), (0, 0, 0, 0), (0, 0), (1, 1), 1, True),
    ("k3s3_pads_nobias", (2, 3, 3, 4), 2, (3, 3), (3, 3), (1, 1, 1, 1), (0, 0), (1, 1), 1, False),
    ("k1s2_outpad_bias", (1, 3, 3, 3), 2, (1, 1), (2, 2), (0, 0, 0, 0), (1, 1), (1, 1), 1, True),
    ("k2x3s3x4_gaps_outpad_pads", (2, 2, 3, 3), 3, (2, 3), (3, 4), (0, 1, 1, 0), (2, 1), (1, 1), 1, True),
    ("k2s3_dil2_g3", (1, 6, 3, 4), 2, (2, 2), (3, 3), (0, 0, 0, 0), (0, 0), (2, 2), 3, False),
    ("k2s2_big", (1, 64, 9, 11), 64, (2, 2), (2, 2), (0, 0, 0, 0), (0, 0), (1, 1), 1, True),
    ("k3s2_overlap_b2_bias", (2, 3, 4, 4), 2, (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), (1, 1), 1, True),
    ("k2s1_overlap_g2", (1, 4, 3, 3), 2, (2, 2), (1, 1), (0, 0, 0, 0), (0, 0), (1, 1), 2, False),
]:
    xg = rng.standard_normal(xsh).astype(np.float32)
    wg = rng.standard_normal((xsh[1], og) + k).astype(np.float32)
    bg = rng.standard_normal((og * g_,)).astype(np.float32) if bias else None
    outg = conv_transpose_full_ref(xg, wg, bg, s_, p_, op_, d_, g_).shape
    attrs = (f"strides = array<i64: {s_[0]}, {s_[1]}>, pads = array<i64: {', '.join(map(str, p_))}>, "
             f"output_padding = array<i64: {op_[0]}, {op_[1]}>, dilations = array<i64: {d_[0]}, {d_[1]}>, groups = {g_} : i64")
    if bias:
        case(f"conv_transpose_{nm}",
             f"%r = graph.conv_transpose2d %a, %b, %c {{{attrs}}} : ({ty(xg.shape)}, {ty(wg.shape)}, {ty(bg.shape)}) -> {ty(outg)}",
             [xg, wg, bg], lambda a, b, c, s2=s_, p2=p_, o2=op_, d2=d_, g2=g_:
             conv_transpose_full_ref(a, b, c, s2, p2, o2, d2, g2), outg)
    else:
        case(f"conv_transpose_{nm}",
             f"%r = graph.conv_transpose2d %a, %b {{{attrs}}} : ({ty(xg.shape)}, {ty(wg.shape)}) -> {ty(outg)}",
             [xg, wg], lambda a, b, s2=s_, p2=p_, o2=op_, d2=d_, g2=g_:
             conv_transpose_full_ref(a, b, None, s2, p2, o2, d2, g2), outg)

failed = 0
with tempfile.TemporaryDirectory() as work:
    for name, body, args, ref, out_shape, out_et in CASES:
        names = ["a", "b", "c"][:len(args)]
        sig = ", ".join(
            f"%{n}: {ty(a.shape, 'i1' if (name == 'where' and n == 'a') else 'f32')} {{accel.name = \"{n}\"}}"
            for n, a in zip(names, args))
        mlir = (f"func.func @main({sig}) -> ({ty(out_shape, out_et)} {{accel.name = \"r\"}}) {{\n"
                f"  {body}\n  return %r : {ty(out_shape, out_et)}\n}}\n")
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(mlir)
        outs, error = compile_and_run(BIN, src, work, name, dict(zip(names, args)), ["r"])
        if error:
            print(f"FAIL {name}: {error.splitlines()[0]}")
            failed += 1
            continue
        got = outs[0].astype(np.float64)
        exp = np.asarray(ref(*args), dtype=np.float64)
        ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-3, atol=1e-5)
        err = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
        print(f"{'PASS' if ok else 'FAIL'} {name} (max error {err:.3g})")
        failed += not ok
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
