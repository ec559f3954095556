//===- DepthFirstRows.cpp - Layer chains in bands of rows -----------------===//
//
// A layer whose output rows depend on its own input rows only (a 1x1
// convolution, a transposed convolution or a pool whose kernel equals its
// stride along the rows, with no row padding) can run on a band of rows
// without the rows around it. A chain of such layers can then run
// depth-first, one band at a time: band k is a graph.slice of the chain's
// input rows followed by every layer on its band, and a graph.concat of the
// bands along the rows replaces the chain's result. The maps between the
// layers then exist one band at a time, small enough for on-chip residency
// instead of a write to DRAM and a read back (the FPN detector's head: two
// 2x2 stride-2 transposed convolutions whose 26 MB map went through DRAM).
// With `halos`, layers that read rows around their band (a 3x3 or a
// strided 7x7 convolution, a 3x3 stride-2 max pool) join chains too: the
// bands are then cut on the chain's result rows and worked out back to its
// input, each layer making the rows its consumer's band reads, so rows
// next to a cut are made by both bands. Off by default: measured, such
// bands moved more DRAM bytes and took longer than the whole layers
// (docs/passes.md, "depth-first-rows"). How many bands:
// accel::tiling::chooseRowSlices (DepthFirst.h) from the hardware
// description's storage.
//
//===----------------------------------------------------------------------===//
#include "DepthFirstShared.h"
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "OptionChecks.h"
#include "accel/Tiling/DepthFirst.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include <numeric>

namespace accel {
#define GEN_PASS_DEF_DEPTHFIRSTROWS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;
using depthfirst::bytesOf;
using depthfirst::dim;
using depthfirst::SliceableChain;

namespace {
constexpr unsigned kRows = 2; // NCHW

/// How a layer maps rows: input rows [a, b) give output rows
/// [a * up / down, b * up / down).
struct RowMap {
  int64_t up = 1, down = 1;
};

/// Whether a window of `kernel` rows stepping by `stride` with the given
/// row pads and dilation reads each input row for exactly one output row,
/// with `in` = `out` * `stride` rows.
bool disjointWindows(int64_t kernel, int64_t stride, int64_t padTop,
                     int64_t padBottom, int64_t dilation, int64_t in,
                     int64_t out) {
  return kernel == stride && padTop == 0 && padBottom == 0 &&
         (dilation == 1 || kernel == 1) && out * stride == in;
}

/// The row map of a layer whose output rows depend on its own input rows
/// only, else nullopt.
std::optional<RowMap> rowMap(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() < 1 ||
      !isa<graph::Conv2DOp, graph::ConvTranspose2DOp, graph::Pool2DOp>(op))
    return std::nullopt;
  Value in = op->getOperand(0), out = op->getResult(0);
  auto inType = dyn_cast<RankedTensorType>(in.getType());
  auto outType = dyn_cast<RankedTensorType>(out.getType());
  if (!inType || !outType || inType.getRank() != 4 || outType.getRank() != 4)
    return std::nullopt;
  const int64_t hin = dim(in, kRows), hout = dim(out, kRows);
  if (auto c = dyn_cast<graph::Conv2DOp>(op)) {
    if (disjointWindows(dim(c.getWeight(), 2), c.getStrides()[0],
                        c.getPads()[0], c.getPads()[2], c.getDilations()[0],
                        hin, hout))
      return RowMap{1, c.getStrides()[0]};
  } else if (auto t = dyn_cast<graph::ConvTranspose2DOp>(op)) {
    // Each input row scatters into its own `stride` output rows.
    if (disjointWindows(dim(t.getWeight(), 2), t.getStrides()[0],
                        t.getPads()[0], t.getPads()[2], t.getDilations()[0],
                        hout, hin) &&
        t.getOutputPadding()[0] == 0)
      return RowMap{t.getStrides()[0], 1};
  } else if (auto p = dyn_cast<graph::Pool2DOp>(op)) {
    if (disjointWindows(p.getKernel()[0], p.getStrides()[0], p.getPads()[0],
                        p.getPads()[2], p.getDilations()[0], hin, hout))
      return RowMap{1, p.getStrides()[0]};
  }
  return std::nullopt;
}

/// The rows a window layer reads: output row o reads input rows
/// [o * stride - padTop, o * stride - padTop + span), span = the dilated
/// kernel's rows.
struct RowWindow {
  int64_t stride = 1, padTop = 0, span = 1, inRows = 0;
  /// Input rows [first, end) and the band's own row pads for output rows
  /// [o0, o1): the rows outside the input are the layer's pads.
  struct Band {
    int64_t first, end, padTop, padBottom;
  };
  Band band(int64_t o0, int64_t o1) const {
    const int64_t lo = o0 * stride - padTop;
    const int64_t hi = (o1 - 1) * stride - padTop + span;
    return {std::max<int64_t>(lo, 0), std::min(hi, inRows),
            std::max<int64_t>(-lo, 0), std::max<int64_t>(hi - inRows, 0)};
  }
};

/// The row window of a graph.conv2d or a graph.pool2d (not in ceil mode,
/// whose last output row may read past its pads), else nullopt.
std::optional<RowWindow> rowWindow(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() < 1)
    return std::nullopt;
  auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!inType || !outType || inType.getRank() != 4 || outType.getRank() != 4)
    return std::nullopt;
  RowWindow w;
  w.inRows = inType.getDimSize(kRows);
  int64_t kernel = 0, dilation = 1, padBottom = 0;
  if (auto c = dyn_cast<graph::Conv2DOp>(op)) {
    kernel = dim(c.getWeight(), 2);
    w.stride = c.getStrides()[0];
    w.padTop = c.getPads()[0];
    padBottom = c.getPads()[2];
    dilation = c.getDilations()[0];
  } else if (auto p = dyn_cast<graph::Pool2DOp>(op)) {
    if (p.getCeilMode())
      return std::nullopt;
    kernel = p.getKernel()[0];
    w.stride = p.getStrides()[0];
    w.padTop = p.getPads()[0];
    padBottom = p.getPads()[2];
    dilation = p.getDilations()[0];
  } else {
    return std::nullopt;
  }
  w.span = (kernel - 1) * dilation + 1;
  // Pads as wide as the window make output rows of pads alone, which no
  // band of input rows can hold.
  if (w.padTop >= w.span || padBottom >= w.span)
    return std::nullopt;
  // The whole layer is its only band: the formula must give its rows.
  if (w.stride < 1 ||
      (w.inRows + w.padTop + padBottom - w.span) / w.stride + 1 !=
          outType.getDimSize(kRows))
    return std::nullopt;
  return w;
}

/// One layer of a chain with its fused epilogue chain. `window` is set for
/// a layer that reads rows around its band (a halo); such a layer joins a
/// chain only with halos allowed.
struct Layer {
  Operation *op;
  RowMap map;
  SliceableChain chain;
  std::optional<RowWindow> window;
};

std::optional<Layer> chainLayer(Operation *op, bool halos) {
  std::optional<RowMap> m = rowMap(op);
  std::optional<RowWindow> w;
  if (!m && halos)
    w = rowWindow(op);
  if (!m && !w)
    return std::nullopt;
  std::optional<SliceableChain> c = depthfirst::sliceableChain(op);
  if (!c)
    return std::nullopt;
  return Layer{op, m.value_or(RowMap{}), *c, w};
}

bool hasHalo(ArrayRef<Layer> layers) {
  return llvm::any_of(layers, [](const Layer &l) { return l.window; });
}

/// The longest chain of row-local layers (or, with `halos`, window layers)
/// from `head`, each the only user of the previous one's chain end
/// (through its input operand). After a transposed convolution a halo
/// layer ends the chain: band boundaries must stay whole rows there.
SmallVector<Layer> chainFrom(Layer head, bool halos) {
  SmallVector<Layer> layers{head};
  while (true) {
    Value end = layers.back().chain.end;
    if (!end.hasOneUse())
      break;
    OpOperand &use = *end.getUses().begin();
    std::optional<Layer> next;
    if (use.getOperandNumber() == 0)
      next = chainLayer(use.getOwner(), halos);
    if (!next || (next->window && llvm::any_of(layers, [](const Layer &l) {
                    return isa<graph::ConvTranspose2DOp>(l.op);
                  })))
      break;
    layers.push_back(*next);
  }
  return layers;
}

/// The smallest band (in the chain input's rows) whose boundaries are
/// whole rows at every layer.
int64_t rowMultiple(ArrayRef<Layer> layers) {
  int64_t num = 1, den = 1, multiple = 1; // input rows -> this layer's rows
  for (const Layer &l : layers) {
    // A boundary a maps to a * num / den rows here, then to
    // a * num / (den * down): whole when den * down / gcd(num, den * down)
    // divides a.
    const int64_t d = den * l.map.down;
    multiple = std::lcm(multiple, d / std::gcd(num, d));
    num *= l.map.up;
    den = d;
    const int64_t g = std::gcd(num, den);
    num /= g;
    den /= g;
  }
  return multiple;
}

/// `layer` on output rows [r0, r1) from `input` (its band of input rows),
/// with its fused chain applied. `band` gives a window layer the row pads
/// of its band (the layer's own at the map's edges, none inside).
Value sliceLayer(OpBuilder &b, const Layer &layer, Value input, int64_t r0,
                 int64_t r1, const RowWindow::Band *band = nullptr) {
  Operation *op = layer.op;
  IRMapping map;
  map.map(op->getOperand(0), input);
  Operation *clone = b.clone(*op, map);
  if (band) {
    auto pads = cast<DenseI64ArrayAttr>(op->getAttr("pads")).asArrayRef();
    clone->setAttr("pads", b.getDenseI64ArrayAttr({band->padTop, pads[1],
                                                   band->padBottom, pads[3]}));
  }
  clone->setLoc(depthfirst::sliceLoc(op, " [rows " + std::to_string(r0) + ":" +
                                             std::to_string(r1) + "]"));
  clone->getResult(0).setType(
      depthfirst::withDim(op->getResult(0), kRows, r1 - r0));
  Value end = depthfirst::cloneChain(b, layer.chain, op->getResult(0),
                                     clone->getResult(0), kRows);
  for (Operation *o = clone; o; o = o->getNextNode()) {
    if (!o->hasTrait<OpTrait::ConstantLike>())
      o->setAttr(kRowBandAttrName, b.getUnitAttr());
    if (o == end.getDefiningOp())
      break;
  }
  return end;
}

/// Rows [r0, r1) of `input`, the band input of `head` (a row_band slice).
Value sliceRows(OpBuilder &b, Operation *head, Value input, int64_t r0,
                int64_t r1) {
  SmallVector<int64_t> offsets(4, 0), strides(4, 1);
  offsets[kRows] = r0;
  Value v = graph::SliceOp::create(
      b,
      depthfirst::sliceLoc(head, " input [rows " + std::to_string(r0) + ":" +
                                     std::to_string(r1) + "]"),
      depthfirst::withDim(input, kRows, r1 - r0), input,
      b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(strides));
  v.getDefiningOp()->setAttr(kRowBandAttrName, b.getUnitAttr());
  return v;
}

/// Where one band of a halo chain runs: the output rows of every layer
/// ([0] = the chain input's rows it reads, [i + 1] = layer i's) and each
/// window layer's row pads. Computed from the chain's result rows back to
/// its input, so a window layer makes the rows around its consumer's band
/// again in every band that needs them.
struct HaloBand {
  SmallVector<std::pair<int64_t, int64_t>> rows;
  SmallVector<RowWindow::Band> pads;
};

/// The band of `layers` making result rows [f0, f1), or nullopt when a
/// boundary falls inside a transposed convolution's rows.
std::optional<HaloBand> haloBand(ArrayRef<Layer> layers, int64_t f0,
                                 int64_t f1) {
  const size_t n = layers.size();
  HaloBand band;
  band.rows.resize(n + 1);
  band.pads.resize(n);
  band.rows[n] = {f0, f1};
  for (size_t i = n; i-- > 0;) {
    auto [o0, o1] = band.rows[i + 1];
    const Layer &l = layers[i];
    if (l.window) {
      band.pads[i] = l.window->band(o0, o1);
      band.rows[i] = {band.pads[i].first, band.pads[i].end};
      continue;
    }
    // Halo-free: output rows [o0, o1) come from input rows
    // [o0 * down / up, o1 * down / up), whole rows only.
    const RowMap m = l.map;
    if ((o0 * m.down) % m.up || (o1 * m.down) % m.up)
      return std::nullopt;
    band.rows[i] = {o0 * m.down / m.up, o1 * m.down / m.up};
  }
  return band;
}

/// A halo chain's bands cut its result rows (`p.rows`), at multiples of
/// the first band that is whole rows at every layer (`p.rowMultiple`);
/// each cut makes the bands on both sides read the chain input's rows
/// around it (`p.haloBytesPerCut`, measured at the middle cut).
void haloCuts(ArrayRef<Layer> layers, tiling::RowSliceProblem &p) {
  Value input = layers.front().op->getOperand(0);
  p.rows = dim(layers.back().chain.end, kRows);
  p.rowMultiple = p.rows;
  for (int64_t m = 1; m < p.rows; ++m)
    if (p.rows % m == 0 && haloBand(layers, 0, m)) {
      p.rowMultiple = m;
      break;
    }
  const int64_t cut =
      std::max<int64_t>(1, p.rows / 2 / p.rowMultiple) * p.rowMultiple;
  std::optional<HaloBand> before = haloBand(layers, 0, cut),
                          after = haloBand(layers, cut, p.rows);
  if (!before || !after || cut >= p.rows)
    return;
  const int64_t overlap =
      std::max<int64_t>(0, before->rows[0].second - after->rows[0].first);
  p.haloBytesPerCut =
      uint64_t(overlap) * (bytesOf(input) / uint64_t(dim(input, kRows)));
}

/// Splits the result rows of a halo chain into `slices` bands of
/// ceil(rows / slices) rows (the last one shorter); empty when a boundary
/// is not whole rows at every layer.
SmallVector<HaloBand> haloBands(ArrayRef<Layer> layers, int64_t slices) {
  const int64_t rows = dim(layers.back().chain.end, kRows);
  const int64_t step = (rows + slices - 1) / slices;
  SmallVector<HaloBand> bands;
  for (int64_t f0 = 0; f0 < rows; f0 += step) {
    std::optional<HaloBand> b = haloBand(layers, f0, std::min(rows, f0 + step));
    if (!b)
      return {};
    bands.push_back(std::move(*b));
  }
  return bands;
}

tiling::RowSliceProblem problemOf(ArrayRef<Layer> layers,
                                  const HardwareDesc &hw) {
  tiling::RowSliceProblem p;
  if (hasHalo(layers)) {
    haloCuts(layers, p);
  } else {
    p.rows = dim(layers.front().op->getOperand(0), kRows);
    p.rowMultiple = rowMultiple(layers);
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    Operation *op = layers[i].op;
    for (Value w : op->getOperands().drop_front())
      p.weightBytes += bytesOf(w);
    p.macs += graph::denseMacs(op);
    if (i + 1 == layers.size())
      continue;
    const uint64_t map = bytesOf(layers[i].chain.end);
    p.interiorBytes += map;
    p.largestInteriorBytes = std::max(p.largestInteriorBytes, map);
  }
  // A concat along the rows is addressing only when nothing varies before
  // them (one image of one channel), else a copy of the result.
  Value result = layers.back().chain.end;
  if (dim(result, 0) * dim(result, 1) > 1)
    p.outputCopyBytes = bytesOf(result);
  p.onChipBytes = uint64_t(hw.numClusters()) * hw.storageBytes;
  p.peakMacsPerCycle = hw.peakMacsPerCycle();
  p.dramBytesPerCycle = hw.dramBytesPerCycle();
  return p;
}

/// The bands of a halo-free chain: `slices` equal bands of its input rows,
/// each layer making exactly the rows its input band maps to.
SmallVector<HaloBand> rowLocalBands(ArrayRef<Layer> layers, int64_t slices) {
  const int64_t rows = dim(layers.front().op->getOperand(0), kRows);
  const int64_t step = rows / slices;
  SmallVector<HaloBand> bands;
  for (int64_t a = 0; a < rows; a += step) {
    HaloBand band;
    band.rows.push_back({a, a + step});
    for (const Layer &l : layers) {
      auto [r0, r1] = band.rows.back();
      band.rows.push_back(
          {r0 * l.map.up / l.map.down, r1 * l.map.up / l.map.down});
    }
    bands.push_back(std::move(band));
  }
  return bands;
}

/// Replaces the chain by `bands` and a concat along the rows.
void sliceChain(ArrayRef<Layer> layers, ArrayRef<HaloBand> bands) {
  Operation *last = layers.back().chain.ops.empty()
                        ? layers.back().op
                        : layers.back().chain.ops.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Value input = layers.front().op->getOperand(0);
  SmallVector<Value> parts;
  for (const HaloBand &band : bands) {
    Value v = sliceRows(b, layers.front().op, input, band.rows[0].first,
                        band.rows[0].second);
    for (size_t i = 0; i < layers.size(); ++i) {
      const Layer &l = layers[i];
      v = sliceLayer(b, l, v, band.rows[i + 1].first, band.rows[i + 1].second,
                     l.window ? &band.pads[i] : nullptr);
    }
    parts.push_back(v);
  }
  Value end = layers.back().chain.end;
  auto concat = graph::ConcatOp::create(b, last->getLoc(), end.getType(), parts,
                                        b.getI64IntegerAttr(kRows));
  end.replaceAllUsesWith(concat.getResult());
  for (const Layer &l : llvm::reverse(layers)) {
    for (Operation *op : llvm::reverse(l.chain.ops))
      op->erase();
    l.op->erase();
  }
}

struct DepthFirstRowsPass
    : public CheckedOptionsPass<
          accel::impl::DepthFirstRowsBase<DepthFirstRowsPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;

  tiling::RowSliceRule rule() const {
    tiling::RowSliceRule r;
    r.wholeFraction = wholeFraction;
    r.sliceFraction = sliceFraction;
    r.minDramToMacRatio = minDramToMacRatio;
    r.maxSlices = maxSlices;
    return r;
  }

  /// The forced band count `slices`, checked against the chain's rows.
  LogicalResult forcedSlices(const tiling::RowSliceProblem &p, Operation *op,
                             int64_t &k) {
    k = slices;
    if (p.rows % k == 0 && (p.rows / k) % p.rowMultiple == 0)
      return success();
    return op->emitError("depth-first-rows: slices=")
           << k << " does not cut the " << p.rows
           << " rows into bands of whole multiples of " << p.rowMultiple;
  }

  OptionChecks optionChecks() const override {
    OptionChecks c("depth-first-rows");
    c.finiteAtLeast("whole-fraction", wholeFraction, 0)
        .finiteAtLeast("slice-fraction", sliceFraction, 0, /*strict=*/true)
        .finiteAtLeast("min-dram-to-mac-ratio", minDramToMacRatio, 0)
        .atLeast("max-slices", maxSlices, 1)
        .atLeast("slices", slices, 0);
    return c;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(optionChecks().emitOn(module)) ||
        failed(moduleHardware(module, hw)))
      return signalPassFailure();
    SmallVector<std::pair<SmallVector<Layer>, SmallVector<HaloBand>>, 4> work;
    llvm::DenseSet<Operation *> claimed;
    bool failed = false;
    module.walk([&](Operation *op) {
      if (claimed.count(op))
        return;
      std::optional<Layer> head = chainLayer(op, halos);
      if (!head)
        return;
      SmallVector<Layer> layers = chainFrom(*head, halos);
      int64_t k = 1;
      if (layers.size() >= 2) {
        tiling::RowSliceProblem p = problemOf(layers, hw);
        if (slices > 0)
          failed |= mlir::failed(forcedSlices(p, op, k));
        else
          k = tiling::chooseRowSlices(p, rule()).slices;
      }
      // A chain with halos left whole leaves the layers after its head to
      // chains of their own: its halo-free end may still pay (the FPN
      // detector's transposed convolutions after its 3x3 head conv).
      const bool headOnly = k == 1 && hasHalo(layers);
      for (const Layer &l : layers) {
        claimed.insert(l.op);
        if (headOnly)
          break;
      }
      if (k > 1) {
        SmallVector<HaloBand> bands =
            hasHalo(layers) ? haloBands(layers, k) : rowLocalBands(layers, k);
        work.push_back({std::move(layers), std::move(bands)});
      }
    });
    if (failed)
      return signalPassFailure();
    for (auto &[layers, bands] : work)
      if (!bands.empty())
        sliceChain(layers, bands);
  }
};
} // namespace
