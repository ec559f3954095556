//===- FuseLayers.cpp - The fuse-layers pass ------------------------------===//
//
// First the graph rewrites (greedy patterns, FuseLayersPatterns.cpp), then
// the epilogue chains are marked on the final graph (FuseLayersChains.cpp):
// a rewrite may create the hard_swish a chain then takes in.
//
//===----------------------------------------------------------------------===//
#include "FuseLayers.h"
#include "Graph/GraphDialect.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Location.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace accel {
#define GEN_PASS_DEF_FUSELAYERS
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
/// The first NameLoc name inside `loc`, or "".
std::string firstName(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getName().str();
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations())
      if (std::string s = firstName(l); !s.empty())
        return s;
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return firstName(c.getCallee());
  return "";
}
/// The first file:line:col inside `loc`, or "".
std::string firstFileLoc(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return (f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
            std::to_string(f.getColumn()));
  if (auto n = dyn_cast<NameLoc>(loc))
    return firstFileLoc(n.getChildLoc());
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations())
      if (std::string s = firstFileLoc(l); !s.empty())
        return s;
  return "";
}
} // namespace

std::string fuse::layerName(Operation *op) {
  if (std::string s = firstName(op->getLoc()); !s.empty())
    return s;
  if (std::string s = firstFileLoc(op->getLoc()); !s.empty())
    return s;
  return op->getName().getStringRef().str();
}

llvm::SmallVector<std::string> fuse::layerNames(Operation *op) {
  llvm::SmallVector<std::string> names;
  if (auto f = dyn_cast<FusedLoc>(op->getLoc()))
    for (Location l : f.getLocations())
      if (std::string s = firstName(l); !s.empty())
        names.push_back(s);
  if (names.empty())
    names.push_back(layerName(op));
  return names;
}

fuse::FusionFields fuse::fusionFields(Operation *op) {
  FusionFields f;
  auto a = op->getAttrOfType<FusionAttr>(kFusionAttrName);
  if (!a)
    return f;
  f.steps.assign(a.getSteps().begin(), a.getSteps().end());
  if (a.getFused())
    f.fused.assign(a.getFused().begin(), a.getFused().end());
  f.pad = a.getPad().str();
  f.squeezeExcite = a.getSqueezeExcite().str();
  return f;
}

void fuse::setFusion(Operation *op, const FusionFields &f) {
  MLIRContext *ctx = op->getContext();
  ArrayAttr fused =
      f.fused.empty() ? ArrayAttr() : ArrayAttr::get(ctx, f.fused);
  op->setAttr(kFusionAttrName,
              FusionAttr::get(ctx, f.steps, fused, f.pad, f.squeezeExcite));
}

namespace {
struct FuseLayersPass : public accel::impl::FuseLayersBase<FuseLayersPass> {
  using FuseLayersBase::FuseLayersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    fuse::populateFusePatterns(patterns, activations, pad, squeezeExcite);
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    if (failed(applyPatternsGreedily(module, std::move(patterns), config))) {
      module.emitError("fuse-layers: the graph rewrites did not converge");
      return signalPassFailure();
    }
    fuse::fuseEpilogueChains(module, activations, residual, broadcastResidual);
  }
};
} // namespace
