//===- SelectRnnParallelism.cpp - EP / VP of every recurrent layer --------===//
//
// The column-wise engine's EP / VP choice (spec/rnn-multithreading.md,
// docs/rnn.md) as #accel.rnn_parallelism on graph.recurrent. The cost model
// and the search live in the MLIR-free library AccelRnn.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "RnnLayer.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Rnn/Engine.h"
#include "accel/Transforms/Passes.h"
#include "llvm/Support/MathExtras.h"

namespace accel {
#define GEN_PASS_DEF_SELECTRNNPARALLELISM
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {

/// An attribute written by hand or by an earlier run must fit the machine
/// the module is compiled for: constraint (8) and the adder-tree width.
LogicalResult checkOnMachine(graph::RecurrentOp op, RnnParallelismAttr p,
                             const rnn::Engine &e) {
  if (p.getEp() > e.epMax)
    return op.emitOpError()
           << kRnnParallelismAttrName << ": ep = " << p.getEp()
           << " exceeds the adder-tree width rnn.ep_max = " << e.epMax;
  if (p.getVp() > e.npe / p.getEp())
    return op.emitOpError()
           << kRnnParallelismAttrName << ": vp = " << p.getVp()
           << " exceeds npe / ep = " << e.npe << " / " << p.getEp() << " = "
           << e.npe / p.getEp() << " (constraint (8))";
  return success();
}

RnnParallelismAttr attrOf(MLIRContext *ctx, const transforms::RnnStepCost &c) {
  std::optional<int64_t> candidateVp;
  if (c.candidate)
    candidateVp = c.candidate->vp;
  return RnnParallelismAttr::get(ctx, c.merged.ep, c.merged.vp, candidateVp,
                                 c.merged.accumulatorsPerCycle, c.busyCycles,
                                 c.busyCycles + c.stallCycles);
}

struct SelectRnnParallelismPass
    : public accel::impl::SelectRnnParallelismBase<SelectRnnParallelismPass> {
  using SelectRnnParallelismBase::SelectRnnParallelismBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HardwareDesc hw;
    if (failed(moduleHardware(module, hw)))
      return signalPassFailure();
    rnn::Engine e = rnn::engineOf(hw);
    if (ep != 0 &&
        (ep < 0 || !llvm::isPowerOf2_64(uint64_t(ep)) || ep > e.epMax)) {
      module.emitError("select-rnn-parallelism: ep = ")
          << int64_t(ep)
          << " must be a power of two <= rnn.ep_max = " << e.epMax;
      return signalPassFailure();
    }
    WalkResult r = module.walk([&](graph::RecurrentOp op) {
      if (auto given =
              op->getAttrOfType<RnnParallelismAttr>(kRnnParallelismAttrName))
        return failed(checkOnMachine(op, given, e)) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
      transforms::RnnLayer l = transforms::rnnLayerOf(op);
      int64_t chosen = ep ? int64_t(ep) : rnn::selectEpVp(e, l.merged).ep;
      op->setAttr(
          kRnnParallelismAttrName,
          attrOf(op.getContext(), transforms::rnnStepCost(e, l, chosen)));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
