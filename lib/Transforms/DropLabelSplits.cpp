//===- DropLabelSplits.cpp - Labels that follow select-mapping's partition ===//
//
// `accel-compile --split=labels` (docs/labels-and-splits.md, "Split strategy
// and mapping: one decision"): split-strategy labels the tensors without
// fixing the partition, select-mapping's cost model then chooses the cluster
// partition freely. The database's split (target dim, piece ranges, store,
// swap) may contradict that partition, and the lowering reads it (constant
// packets, reduction exchange level), so this pass removes the split part of
// every dynamic label after select-mapping: the labels keep what stays true
// (static label, processor order, tiling, padding, size). Relayouts that
// split-strategy inserted stay; they are ordinary data movement.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace accel {
#define GEN_PASS_DEF_DROPLABELSPLITS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {

/// `label` without its split (null when it has none: nothing to change).
LabelAttr withoutSplit(LabelAttr label) {
  DynamicLabelAttr dyn = label.getDynamicLabel();
  if (dyn.getSplitDim().empty() && dyn.getRanges().empty())
    return {};
  split::DynamicLabel d = toSplit(dyn);
  d.splitDim = 0;
  d.ranges.clear();
  d.store = split::StorageTarget();
  d.swap = split::Swap::None;
  MLIRContext *ctx = label.getContext();
  return LabelAttr::get(ctx, label.getStaticLabel(), dynamicLabelAttr(ctx, d));
}

struct DropLabelSplitsPass
    : public accel::impl::DropLabelSplitsBase<DropLabelSplitsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto labels = op->getAttrOfType<ArrayAttr>(kLabelsAttrName)) {
        SmallVector<Attribute> kept(labels.begin(), labels.end());
        bool changed = false;
        for (Attribute &a : kept)
          if (auto label = dyn_cast<LabelAttr>(a))
            if (LabelAttr plain = withoutSplit(label)) {
              a = plain;
              changed = true;
            }
        if (changed)
          op->setAttr(kLabelsAttrName, ArrayAttr::get(op->getContext(), kept));
      }
      if (auto fn = dyn_cast<func::FuncOp>(op))
        for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
          if (auto label = fn.getArgAttrOfType<LabelAttr>(i, kLabelAttrName))
            if (LabelAttr plain = withoutSplit(label))
              fn.setArgAttr(i, kLabelAttrName, plain);
    });
  }
};

} // namespace
