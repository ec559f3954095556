//===- LayerTable.cpp - Program::layers from the source locations ---------===//
//
// Per-layer attribution (docs/passes.md "Layer table"): every source operator
// the lowering turns into commands gets one Program::layers entry, named by
// its MLIR location (the importer's NameLoc(node name, NameLoc(op type,
// file)); a FusedLoc's first name, the others listed as fused), and every
// command emitted for it carries the entry's index (StreamBuilder::setLayer).
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Lowering.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace mlir;
using namespace accel;
using namespace accel::lowering;

namespace {
struct LocName {
  std::string name, kind; ///< kind empty = not recorded in the location
};

/// The name a location gives an operator: a NameLoc's name (and the op type
/// of a nested NameLoc, the importer's convention), else "file:line:col"
/// (the file's base name).
std::optional<LocName> locName(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    LocName r{n.getName().str(), ""};
    if (auto kind = dyn_cast<NameLoc>(n.getChildLoc()))
      r.kind = kind.getName().str();
    return r;
  }
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    // The file's base name: the same name wherever the file was compiled.
    return LocName{llvm::sys::path::filename(f.getFilename().getValue()).str() +
                       ":" + std::to_string(f.getLine()) + ":" +
                       std::to_string(f.getColumn()),
                   ""};
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return locName(c.getCallee());
  if (auto o = dyn_cast<OpaqueLoc>(loc))
    return locName(o.getFallbackLocation());
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location part : f.getLocations())
      if (auto r = locName(part))
        return r;
  return std::nullopt;
}

/// Name, kind and fused names of `op` from its location. A FusedLoc (e.g.
/// fold-batch-norm's conv + batch norm) is named by its first part; the
/// other parts' names are the operators fused into it. Without a usable
/// location: "<op name>_<position>" (position = index in the function).
LayerInfo describe(Operation *op, std::optional<size_t> position) {
  LayerInfo info;
  SmallVector<Location> parts;
  if (auto f = dyn_cast<FusedLoc>(op->getLoc()))
    parts.append(f.getLocations().begin(), f.getLocations().end());
  else
    parts.push_back(op->getLoc());
  for (Location part : parts) {
    std::optional<LocName> n = locName(part);
    if (!n)
      continue;
    if (info.name.empty()) {
      info.name = n->name;
      info.opKind = n->kind;
    } else if (n->name != info.name &&
               llvm::find(info.fused, n->name) == info.fused.end()) {
      info.fused.push_back(n->name);
    }
  }
  std::string opName = op->getName().getStringRef().str();
  if (info.name.empty())
    info.name = position ? opName + "_" + std::to_string(*position) : opName;
  if (info.opKind.empty())
    info.opKind = opName;
  return info;
}

uint64_t elementsOf(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  return t && t.hasStaticShape() ? uint64_t(t.getNumElements()) : 0;
}

} // namespace

uint32_t Lowering::openLayer(Operation *op, size_t position, bool &created) {
  Location loc = op->getLoc();
  const bool keyed = locName(loc).has_value();
  if (keyed) {
    auto it = layerOfLoc_.find(loc);
    if (it != layerOfLoc_.end()) {
      created = false;
      return it->second;
    }
  }
  created = true;
  auto index = uint32_t(program_.layers.size());
  program_.layers.push_back(describe(op, position));
  layerReads_.emplace_back();
  if (keyed)
    layerOfLoc_[loc] = index;
  return index;
}

void Lowering::countLayerRead(uint32_t layer, Value v) {
  while (auto r = v.getDefiningOp<graph::ReshapeOp>())
    v = r.getInput();
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  if (!cst && !isa<BlockArgument>(v))
    return;
  // A large splat is filled at run time (lowerSplatConstant): no weights.
  if (cst)
    if (auto d = dyn_cast<DenseElementsAttr>(cst.getValue());
        d && d.isSplat() && int64_t(elementsOf(v)) >= kMinFilledSplat)
      return;
  if (!layerReads_[layer].insert(v).second)
    return;
  // Every value is held as 4-byte words in DRAM (i1 / i64 as f32).
  uint64_t bytes = 4 * elementsOf(v);
  LayerInfo &info = program_.layers[layer];
  info.compulsoryBytes += bytes;
  if (cst && weightsCounted_.insert(cst.getValue()).second)
    info.weightBytes += bytes;
}

void Lowering::closeLayer(Operation *op, uint32_t layer, bool created,
                          uint64_t commandsBefore, size_t fusedBefore) {
  if (sb_.numCommands() == commandsBefore && fused_.size() == fusedBefore) {
    // Nothing emitted (reshapes, constants in the binary): no entry.
    if (created) {
      program_.layers.pop_back();
      layerReads_.pop_back();
      layerOfLoc_.erase(op->getLoc());
    }
    return;
  }
  auto account = [&](Operation *o) {
    layerOfOp_[o] = layer;
    program_.layers[layer].macs += graph::denseMacs(o);
    for (Value v : o->getOperands()) {
      countLayerRead(layer, v);
      recordDataFlow(layer, v);
    }
  };
  account(op);
  if (op->getNumResults())
    program_.layers[layer].outputBytes = 4 * elementsOf(op->getResult(0));
  // Operators fuse-layers folded away (a pad, a squeeze-excite multiply)
  // exist only as names in the producer's decision.
  if (auto fusion = op->getAttrOfType<FusionAttr>(kFusionAttrName)) {
    LayerInfo &info = program_.layers[layer];
    // (The chain's operators stay in the graph and are named below, from
    // their own locations, like every other layer.)
    for (llvm::StringRef gone : {fusion.getPad(), fusion.getSqueezeExcite()})
      if (!gone.empty() && gone != info.name &&
          llvm::find(info.fused, gone.str()) == info.fused.end())
        info.fused.push_back(gone.str());
  }
  for (size_t i = fusedBefore; i < fused_.size(); ++i) {
    Operation *f = fused_[i];
    account(f);
    LayerInfo &info = program_.layers[layer];
    for (std::string &name : describe(f, std::nullopt).fused)
      if (llvm::find(info.fused, name) == info.fused.end())
        info.fused.push_back(name);
    std::string name = describe(f, std::nullopt).name;
    if (name != info.name && llvm::find(info.fused, name) == info.fused.end())
      info.fused.push_back(name);
  }
}

Value Lowering::viewedValue(Value v) const {
  while (true) {
    if (auto r = v.getDefiningOp<graph::ReshapeOp>())
      v = r.getInput();
    else if (auto s = v.getDefiningOp<graph::SliceOp>();
             s && sliceViews_.count(s))
      v = s.getInput();
    else
      return v;
  }
}

void Lowering::recordDataFlow(uint32_t layer, Value v) {
  v = viewedValue(v);
  LayerInfo &info = program_.layers[layer];
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto attr =
        func_.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "accel.name");
    // The symbol's name, as the input's symbol gets it (GraphToIsa.cpp).
    std::string name =
        attr ? attr.str() : "input" + std::to_string(arg.getArgNumber());
    if (!llvm::is_contained(info.inputSymbols, name))
      info.inputSymbols.push_back(name);
    return;
  }
  // A concat written in place (no layer of its own) is read from every
  // layer that wrote a slice of it, not only the last one.
  auto concat = v.getDefiningOp<graph::ConcatOp>();
  if (concat && !layerOfOp_.count(concat)) {
    for (Value part : concat.getInputs())
      recordDataFlow(layer, part);
    return;
  }
  uint32_t from = layerWriting(v);
  if (from != Command::kNoLayer && from != layer &&
      !llvm::is_contained(info.inputs, from))
    info.inputs.push_back(from);
}

uint32_t Lowering::layerWriting(Value v) const {
  v = viewedValue(v);
  Operation *def = v.getDefiningOp();
  auto it = def ? layerOfOp_.find(def) : layerOfOp_.end();
  // A concat written in place by its operands' producers (no layer of its
  // own, planConcatSlices): the layer of the last one.
  if (it == layerOfOp_.end())
    if (auto concat = dyn_cast_or_null<graph::ConcatOp>(def))
      if (!concat.getInputs().empty())
        return layerWriting(concat.getInputs().back());
  return it == layerOfOp_.end() ? Command::kNoLayer : it->second;
}

void Lowering::layerForOutput(Value v, const Symbol &symbol) {
  uint32_t layer = layerWriting(v);
  if (layer == Command::kNoLayer) {
    // An input or constant returned as it is: its copy is a layer of its
    // own, named after the output.
    layer = uint32_t(program_.layers.size());
    LayerInfo info;
    info.name = symbol.name;
    info.opKind = "output copy";
    program_.layers.push_back(std::move(info));
    layerReads_.emplace_back();
    countLayerRead(layer, v);
  }
  countOutputWrites(v, symbol.name, layer);
  sb_.setLayer(layer);
}

void Lowering::countOutputWrites(Value v, const std::string &symbol,
                                 uint32_t fallback) {
  Value w = viewedValue(v);
  if (auto concat = w.getDefiningOp<graph::ConcatOp>()) {
    // Each operand's slice is written by its producer when it was planned
    // in place (planConcatSlices), else by the concat's own copy layer: a
    // network output cut into row bands (depth-first-rows) is written by
    // every band, each its own rows.
    auto own = layerOfOp_.find(concat);
    uint32_t copier = own == layerOfOp_.end() ? fallback : own->second;
    const size_t axis = size_t(concat.getAxis());
    const uint64_t axisBytes =
        4 * uint64_t(denseStrides(shapeOf(concat.getResult()))[axis]);
    auto base = addr_.find(concat.getResult());
    int64_t offset = 0;
    for (Value part : concat.getInputs()) {
      uint64_t slice =
          base == addr_.end() ? 0 : base->second + uint64_t(offset) * axisBytes;
      offset += shapeOf(part)[axis];
      auto at = addr_.find(part);
      bool inPlace = base != addr_.end() && at != addr_.end() &&
                     at->second == slice &&
                     layerWriting(part) != Command::kNoLayer;
      if (inPlace)
        countOutputWrites(part, symbol, copier);
      else
        addOutputBytes(copier, part, symbol);
    }
    return;
  }
  uint32_t layer = layerWriting(w);
  addOutputBytes(layer == Command::kNoLayer ? fallback : layer, v, symbol);
}

void Lowering::addOutputBytes(uint32_t layer, Value v,
                              const std::string &symbol) {
  LayerInfo &info = program_.layers[layer];
  info.compulsoryBytes += 4 * uint64_t(elementsOf(v));
  if (!llvm::is_contained(info.outputSymbols, symbol))
    info.outputSymbols.push_back(symbol);
}
