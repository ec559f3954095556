//===- SelectMapping.cpp - Dataflow and array partition per GEMM op -------===//
//
// For every graph.matmul / graph.gemm / graph.conv2d: the GEMM problem the
// lowering emits, the per-cluster tile sizes (the kernel tiling the lowering
// derives from accel.tiling, else from its own decision), the 48 (dataflow,
// partition) pairs priced by tiling::selectMapping, and the cheapest (or the
// forced parts) as `accel.mapping`. An existing attribute is checked and kept.
// See docs/mapping.md.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Graph/GraphPatterns.h"
#include "MappingProblem.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/ArrayMapping.h"
#include "accel/Transforms/Passes.h"
#include <cmath>

namespace accel {
#define GEN_PASS_DEF_SELECTMAPPING
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
struct SelectMappingPass
    : public accel::impl::SelectMappingBase<SelectMappingPass> {
  using SelectMappingBase::SelectMappingBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The ReLU-fusion check below expects one spelling per operation.
    if (failed(graph::applyCanonicalSpellings(module))) {
      module.emitError("the graph ops did not reach their canonical spelling");
      return signalPassFailure();
    }
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
      return signalPassFailure();
    std::optional<tiling::Dataflow> forceDf;
    if (dataflow != DataflowChoice::Auto)
      forceDf = forcedDataflow();
    std::optional<tiling::ArrayPartition> forceArr;
    if (!array.empty()) {
      tiling::ArrayPartition a;
      bool ok = array.size() == 2;
      for (size_t i = 0; ok && i < 2; ++i)
        ok = tiling::parseSplitDim(array[i], a.dims[i]);
      if (!ok) {
        module.emitError(
            "select-mapping: array must be two of M, N, K, none, B "
            "(grid rows, grid columns), e.g. array=K,N");
        return signalPassFailure();
      }
      forceArr = a;
    }

    WalkResult r = module.walk([&](Operation *op) {
      if (!isa<graph::MatMulOp, graph::GemmOp, graph::Conv2DOp>(op))
        return WalkResult::advance();
      // Depthwise convs (groups == channels) run on the SW weight-queue
      // kernel, which has no GEMM to partition (docs/depthwise.md).
      if (auto conv = dyn_cast<graph::Conv2DOp>(op))
        if (conv.isDepthwise() && !op->hasAttr(kMappingAttrName))
          return WalkResult::advance();
      // An existing attribute was checked by the accel dialect's verifier.
      // A split decision (split-strategy's ranges) fixes the partition; a
      // forced array must agree with it, only the dataflow is still open.
      auto existing = op->getAttrOfType<MappingAttr>(kMappingAttrName);
      std::optional<tiling::ArrayPartition> splitArr;
      if (existing && !existing.getRanges().empty()) {
        tiling::ArrayPartition a;
        a.dims = {toTiling(existing.getRows()), toTiling(existing.getCols())};
        if (forceArr && !(*forceArr == a)) {
          op->emitOpError("select-mapping: forced array=")
              << tiling::partitionName(*forceArr)
              << " contradicts the split decision " << tiling::partitionName(a)
              << " with ranges [" << existing.getRanges()
              << "] of split-strategy";
          return WalkResult::interrupt();
        }
        if (!existing.getDataflow())
          splitArr = a;
      }
      if (existing && !splitArr)
        return WalkResult::advance();
      tiling::MappingProblem mp;
      if (!transforms::mappingProblemOf(op, hw, mp))
        return WalkResult::advance();
      const tiling::ArrayPartition *arr = splitArr   ? &*splitArr
                                          : forceArr ? &*forceArr
                                                     : nullptr;
      // A split decision is priced with its ranges (the slices the
      // lowering cuts), as split-strategy's parallel=best priced it.
      std::vector<int64_t> ranges;
      if (splitArr)
        ranges.assign(existing.getRanges().begin(), existing.getRanges().end());
      tiling::MappingCost best = tiling::selectMapping(
          mp, hw, forceDf ? &*forceDf : nullptr, arr, ranges);
      if (!best.feasible) {
        op->emitOpError("select-mapping: ")
            << tiling::choiceName(best.choice) << " needs "
            << best.instructionBuffers
            << " instruction buffers, the hardware has "
            << hw.instructionBuffers;
        return WalkResult::interrupt();
      }
      op->setAttr(
          kMappingAttrName,
          mappingAttr(op->getContext(), best.choice,
                      int64_t(std::llround(best.cycles)),
                      existing ? existing.getRanges() : ArrayRef<int64_t>()));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }

  tiling::Dataflow forcedDataflow() const {
    switch (dataflow) {
    case DataflowChoice::InputStationary:
      return tiling::Dataflow::InputStationary;
    case DataflowChoice::WeightStationary:
      return tiling::Dataflow::WeightStationary;
    default:
      return tiling::Dataflow::OutputStationary;
    }
  }
};
} // namespace
