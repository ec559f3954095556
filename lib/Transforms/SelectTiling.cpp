//===- SelectTiling.cpp - Attach tiling decisions to GEMM-shaped ops ------===//
//
// For every graph.matmul / graph.gemm / graph.conv2d: the GEMM problem the
// lowering will emit (same m, k, n, count and bias as convert-graph-to-isa),
// the decision of docs/tiling.md on kernelTilingHardware, and an
// `accel.tiling` dictionary the lowering follows. See docs/passes.md.
//
//===----------------------------------------------------------------------===//
#include "GemmProblem.h"
#include "Graph/GraphDialect.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Transforms/PassHardware.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include <cmath>

namespace accel {
#define GEN_PASS_DEF_SELECTTILING
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
using accel::transforms::problemOf;

struct SelectTilingPass
    : public accel::impl::SelectTilingBase<SelectTilingPass> {
  using SelectTilingBase::SelectTilingBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(loadPassHardware(module, hwPath, hw)))
      return signalPassFailure();
    if (!outer.empty() && outer != "m" && outer != "n") {
      module.emitError("select-tiling: outer must be 'm' or 'n'");
      return signalPassFailure();
    }
    if (!splitK.empty() && splitK != "on" && splitK != "off") {
      module.emitError("select-tiling: split-k must be 'on' or 'off'");
      return signalPassFailure();
    }
    if (!refine.empty() && refine != "machine") {
      module.emitError("select-tiling: refine must be 'machine' or empty");
      return signalPassFailure();
    }
    if (!refine.empty() && (!outer.empty() || !splitK.empty() || partitionM ||
                            partitionN || partitionK || !baseline.empty())) {
      module.emitError("select-tiling: refine cannot be combined with a "
                       "forced decision or a baseline");
      return signalPassFailure();
    }
    if (!baseline.empty() && baseline != "naive-order" &&
        baseline != "naive-64" && baseline != "square-sk") {
      module.emitError("select-tiling: unknown baseline '") << baseline << "'";
      return signalPassFailure();
    }
    unsigned elemBytes = tiling::computeElemBytes(hw);
    WalkResult r = module.walk([&](Operation *op) {
      if (!isa<graph::MatMulOp, graph::GemmOp, graph::Conv2DOp>(op))
        return WalkResult::advance();
      if (op->hasAttr(kTilingAttrName))
        return WalkResult::advance();
      tiling::GemmProblem p;
      bool withInit;
      if (!problemOf(op, elemBytes, p, withInit))
        return WalkResult::advance();
      tiling::TilingHardware th = codegen::kernelTilingHardware(hw, withInit);
      tiling::TileDecision d = decide(p, th);
      if (!d.feasible) {
        op->emitOpError("select-tiling: ") << d.error;
        return WalkResult::interrupt();
      }
      // The machine prediction models the dense GEMM kernel; convolutions
      // (implicit GEMM, bLoadBytes set) keep the spec's decision.
      if (refine == "machine" && p.aLoadBytes == 0 && p.bLoadBytes == 0)
        d = codegen::refineForKernel(hw, p, d, withInit);
      op->setAttr(kTilingAttrName, toAttr(op->getContext(), d));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }

  tiling::TileDecision decide(const tiling::GemmProblem &p,
                              const tiling::TilingHardware &th) {
    tiling::TileDecision d;
    if (baseline == "naive-order")
      d = tiling::baselineTiling(p, th, tiling::Baseline::FixedOrderNoSplit);
    else if (baseline == "naive-64")
      d = tiling::baselineTiling(p, th, tiling::Baseline::FixedBlockTiles);
    else if (baseline == "square-sk")
      d = tiling::baselineTiling(p, th, tiling::Baseline::SquareSplitK);
    else
      d = tiling::selectTiling(p, th);
    bool forced = !outer.empty() || !splitK.empty() || partitionM > 0 ||
                  partitionN > 0 || partitionK > 0;
    if (!forced || !d.feasible)
      return d;
    tiling::Mapping m = d.mapping();
    if (!outer.empty())
      m.outerRowMajor = outer == "m";
    if (partitionM > 0)
      m.partitionM = std::min<int64_t>(partitionM, p.m);
    if (partitionN > 0)
      m.partitionN = std::min<int64_t>(partitionN, p.n);
    if (splitK == "off")
      m.partitionK = p.k;
    if (splitK == "on" && partitionK <= 0 && m.partitionK >= p.k &&
        p.k > th.blockSize) {
      // Largest block-aligned chunk below k that fits (at least two chunks).
      int64_t b = th.blockSize;
      m.partitionK = std::max<int64_t>(b, (p.k - 1) / b * b);
    }
    if (partitionK > 0)
      m.partitionK = std::min<int64_t>(partitionK, p.k);
    tiling::TileDecision f = tiling::decisionFromMapping(p, th, m);
    if (!f.feasible)
      f.error = "forced mapping (outer " +
                std::string(m.outerRowMajor ? "m" : "n") + ", " +
                std::to_string(m.partitionM) + " x " +
                std::to_string(m.partitionN) + " x " +
                std::to_string(m.partitionK) + ") is not legal: " + f.error;
    return f;
  }

  static DictionaryAttr toAttr(MLIRContext *ctx,
                               const tiling::TileDecision &d) {
    Builder b(ctx);
    SmallVector<NamedAttribute> attrs;
    auto i64 = [&](const char *n, int64_t v) {
      attrs.push_back(b.getNamedAttr(n, b.getI64IntegerAttr(v)));
    };
    i64("partition_m", d.partitionM);
    i64("partition_n", d.partitionN);
    i64("partition_k", d.partitionK);
    i64("tile_m", d.tileM);
    i64("tile_n", d.tileN);
    attrs.push_back(
        b.getNamedAttr("outer", b.getStringAttr(d.outerRowMajor ? "m" : "n")));
    attrs.push_back(b.getNamedAttr("split_k", b.getBoolAttr(d.needSplitK)));
    i64("acc_bytes", int64_t(d.needSplitK ? d.accBytesUsed : 0));
    i64("loads_a", d.loadA);
    i64("loads_b", d.loadB);
    attrs.push_back(b.getNamedAttr(
        "util", b.getF64FloatAttr(std::round(d.util * 1e4) / 1e4)));
    i64("cycles", int64_t(std::llround(d.cycles)));
    attrs.push_back(b.getNamedAttr(
        "strategy", b.getStringAttr(tiling::strategyName(d.strategy))));
    return b.getDictionaryAttr(attrs);
  }
};
} // namespace
