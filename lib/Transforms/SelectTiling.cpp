//===- SelectTiling.cpp - Attach tiling decisions to GEMM-shaped ops ------===//
//
// For every graph.matmul / graph.gemm / graph.conv2d: the GEMM problem the
// lowering will emit (same m, k, n, count and bias as convert-graph-to-isa),
// the decision of docs/tiling.md on kernelTilingHardware, and an
// #accel.tiling the lowering follows. See docs/passes.md.
//
//===----------------------------------------------------------------------===//
#include "Accel/GemmProblem.h"
#include "Graph/GraphDialect.h"
#include "OptionChecks.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
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

/// A dynamic dimension would reach the tiling as a size of -1 (reported
/// as "count must be >= 1"); the lowering needs static shapes anyway.
LogicalResult requireStaticShapes(Operation *op) {
  auto check = [&](StringRef what, unsigned i, Type t) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || shaped.hasStaticShape())
      return success();
    return op->emitOpError("select-tiling: ")
           << what << " #" << i << " has type " << t
           << "; the accelerator needs static shapes (accel-compile "
              "--input-shape NAME=SHAPE fixes a model input's)";
  };
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check("operand", i, t)))
      return failure();
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    if (failed(check("result", i, t)))
      return failure();
  return success();
}

struct SelectTilingPass : public CheckedOptionsPass<
                              accel::impl::SelectTilingBase<SelectTilingPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;

  OptionChecks optionChecks() const override {
    OptionChecks c("select-tiling");
    c.atLeast("partition-m", partitionM, 0)
        .atLeast("partition-n", partitionN, 0)
        .atLeast("partition-k", partitionK, 0);
    return c;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(optionChecks().emitOn(module)) ||
        failed(moduleHardware(module, hw)))
      return signalPassFailure();
    bool forced = outer != OuterChoice::Auto || splitK != SplitKChoice::Auto ||
                  partitionM || partitionN || partitionK;
    if (refine != TilingRefine::None &&
        (forced || baseline != TilingBaseline::None)) {
      module.emitError("select-tiling: refine cannot be combined with a "
                       "forced decision or a baseline");
      return signalPassFailure();
    }
    unsigned elemBytes = tiling::computeElemBytes(hw);
    WalkResult r = module.walk([&](Operation *op) {
      if (!isa<graph::MatMulOp, graph::GemmOp, graph::Conv2DOp>(op))
        return WalkResult::advance();
      if (op->hasAttr(kTilingAttrName))
        return WalkResult::advance();
      if (failed(requireStaticShapes(op)))
        return WalkResult::interrupt();
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
      if (refine == TilingRefine::Machine && p.aLoadBytes == 0 &&
          p.bLoadBytes == 0)
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
    switch (baseline) {
    case TilingBaseline::NaiveOrder:
      d = tiling::baselineTiling(p, th, tiling::Baseline::FixedOrderNoSplit);
      break;
    case TilingBaseline::Naive64:
      d = tiling::baselineTiling(p, th, tiling::Baseline::FixedBlockTiles);
      break;
    case TilingBaseline::SquareSplitK:
      d = tiling::baselineTiling(p, th, tiling::Baseline::SquareSplitK);
      break;
    case TilingBaseline::None:
      d = tiling::selectTiling(p, th);
      break;
    }
    bool forced = outer != OuterChoice::Auto || splitK != SplitKChoice::Auto ||
                  partitionM > 0 || partitionN > 0 || partitionK > 0;
    if (!forced || !d.feasible)
      return d;
    tiling::Mapping m = d.mapping();
    if (outer != OuterChoice::Auto)
      m.outerRowMajor = outer == OuterChoice::M;
    if (partitionM > 0)
      m.partitionM = std::min<int64_t>(partitionM, p.m);
    if (partitionN > 0)
      m.partitionN = std::min<int64_t>(partitionN, p.n);
    if (splitK == SplitKChoice::Off)
      m.partitionK = p.k;
    if (splitK == SplitKChoice::On && partitionK <= 0 && m.partitionK >= p.k &&
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

  static TilingAttr toAttr(MLIRContext *ctx, const tiling::TileDecision &d) {
    return TilingAttr::get(
        ctx, d.partitionM, d.partitionN, d.partitionK,
        d.outerRowMajor ? OuterLoop::M : OuterLoop::N, d.tileM, d.tileN,
        d.needSplitK, int64_t(d.needSplitK ? d.accBytesUsed : 0), d.loadA,
        d.loadB, APFloat(std::round(d.util * 1e4) / 1e4),
        int64_t(std::llround(d.cycles)), strategyOf(d.strategy));
  }

  static TilingStrategy strategyOf(tiling::Strategy s) {
    switch (s) {
    case tiling::Strategy::ResidentA:
      return TilingStrategy::ResidentA;
    case tiling::Strategy::ResidentB:
      return TilingStrategy::ResidentB;
    case tiling::Strategy::ReloadA:
      return TilingStrategy::ReloadA;
    case tiling::Strategy::ReloadB:
      return TilingStrategy::ReloadB;
    case tiling::Strategy::SplitK:
      return TilingStrategy::SplitK;
    }
    llvm_unreachable("unknown tiling strategy");
  }
};
} // namespace
