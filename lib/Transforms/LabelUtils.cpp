//===- LabelUtils.cpp - Reading and writing tensor labels -----------------===//
#include "LabelUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace accel;

namespace {
FunctionOpInterface entryBlockFunction(BlockArgument arg) {
  auto fn =
      dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!fn || arg.getOwner() != &fn.getFunctionBody().front())
    return {};
  return fn;
}
} // namespace

LabelAttr labels::labelOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    FunctionOpInterface fn = entryBlockFunction(arg);
    return fn ? dyn_cast_or_null<LabelAttr>(
                    fn.getArgAttr(arg.getArgNumber(), kLabelAttrName))
              : LabelAttr();
  }
  auto arr = v.getDefiningOp()->getAttrOfType<ArrayAttr>(kLabelsAttrName);
  unsigned i = cast<OpResult>(v).getResultNumber();
  return arr && i < arr.size() ? dyn_cast<LabelAttr>(arr[i]) : LabelAttr();
}

bool labels::setLabel(Value v, LabelAttr label) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    FunctionOpInterface fn = entryBlockFunction(arg);
    if (!fn)
      return false;
    fn.setArgAttr(arg.getArgNumber(), kLabelAttrName, label);
    return true;
  }
  Operation *op = v.getDefiningOp();
  unsigned i = cast<OpResult>(v).getResultNumber();
  auto arr = op->getAttrOfType<ArrayAttr>(kLabelsAttrName);
  SmallVector<Attribute> entries;
  if (arr && arr.size() == op->getNumResults())
    entries.assign(arr.begin(), arr.end());
  else if (op->getNumResults() == 1)
    entries.resize(1);
  else
    return false;
  entries[i] = label;
  op->setAttr(kLabelsAttrName, ArrayAttr::get(op->getContext(), entries));
  return true;
}

std::string labels::labelText(LabelAttr label) {
  return label.getStaticLabel().str() + " " + label.getDynamicLabel().str();
}

std::string labels::valueName(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "argument " + std::to_string(arg.getArgNumber());
  return "result " + std::to_string(cast<OpResult>(v).getResultNumber());
}

void labels::remarkLabel(Value v, LabelAttr label) {
  Operation *owner = isa<BlockArgument>(v)
                         ? cast<BlockArgument>(v).getOwner()->getParentOp()
                         : v.getDefiningOp();
  owner->emitRemark() << valueName(v) << ": " << labelText(label);
}
