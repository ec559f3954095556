//===- LabelAttrs.cpp - #accel.*_label <-> accel::split labels ------------===//
//
// The attributes mirror accel::split::StaticLabel / DynamicLabel field by
// field; the split library owns the spec's text form, so str() converts and
// prints there (one printer for the pure library and the IR).
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"

using namespace mlir;
using namespace accel;

namespace {
char letter(StringRef s) { return s.empty() ? 0 : s.front(); }
std::string letterStr(char c) { return c ? std::string(1, c) : std::string(); }

split::StorageTarget storeOf(StringRef s) {
  split::StorageTarget t;
  // Verified to be mem[K] / cluster[K]; "" (not decided yet) reads as mem.
  if (!s.empty())
    split::parseStorageTarget(s.str(), t);
  return t;
}

split::Swap swapOf(SwapLevel s) {
  switch (s) {
  case SwapLevel::None:
    return split::Swap::None;
  case SwapLevel::Core:
    return split::Swap::Core;
  case SwapLevel::Cluster:
    return split::Swap::Cluster;
  case SwapLevel::Mem:
    return split::Swap::Mem;
  }
  llvm_unreachable("unknown swap level");
}

SwapLevel swapAttr(split::Swap s) {
  return *symbolizeSwapLevel(split::swapName(s));
}
} // namespace

split::StaticLabel accel::toSplit(StaticLabelAttr a) {
  split::StaticLabel s;
  split::parseCategory(stringifyTensorCategory(a.getCategory()).str(),
                       s.category);
  s.type = a.getType().str();
  s.dimOrder = a.getOrder().str();
  s.dims.assign(a.getDims().begin(), a.getDims().end());
  return s;
}

split::DynamicLabel accel::toSplit(DynamicLabelAttr a) {
  split::DynamicLabel d;
  d.type = a.getType().str();
  d.dimOrder = a.getOrder().str();
  d.tileDim = letter(a.getTileDim());
  d.tile = a.getTile();
  d.padDim = letter(a.getPadDim());
  d.pad = a.getPad();
  d.sizeBytes = uint64_t(a.getSize());
  d.splitDim = letter(a.getSplitDim());
  ArrayRef<int64_t> r = a.getRanges();
  for (size_t i = 0; i + 1 < r.size(); i += 2)
    d.ranges.push_back({r[i], r[i + 1]});
  d.store = storeOf(a.getStore());
  d.swap = swapOf(a.getSwap());
  return d;
}

StaticLabelAttr accel::staticLabelAttr(MLIRContext *ctx,
                                       const split::StaticLabel &s) {
  return StaticLabelAttr::get(
      ctx, *symbolizeTensorCategory(split::categoryCode(s.category)), s.type,
      s.dimOrder, s.dims);
}

DynamicLabelAttr accel::dynamicLabelAttr(MLIRContext *ctx,
                                         const split::DynamicLabel &d) {
  SmallVector<int64_t> flat;
  for (auto [first, last] : d.ranges) {
    flat.push_back(first);
    flat.push_back(last);
  }
  // Store and swap belong to the split (S16): absent before it.
  std::string store = d.splitDim ? d.store.str() : std::string();
  return DynamicLabelAttr::get(ctx, d.type, d.dimOrder, letterStr(d.tileDim),
                               d.tile, letterStr(d.padDim), d.pad,
                               int64_t(d.sizeBytes), letterStr(d.splitDim),
                               flat, store, swapAttr(d.swap));
}

std::string StaticLabelAttr::str() const { return toSplit(*this).str(); }

std::string DynamicLabelAttr::str() const { return toSplit(*this).str(); }
