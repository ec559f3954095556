//===- MappingAttr.cpp - Read and write the accel.mapping attribute -------===//
//
// One place that knows the syntax of `accel.mapping` (docs/mapping.md):
// select-mapping writes it and checks an existing one, convert-graph-to-isa
// reads it.
//
//===----------------------------------------------------------------------===//
#include "accel/Transforms/Passes.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace accel;

bool accel::parseMappingAttr(Attribute attr, tiling::MappingChoice &out,
                             std::string &err) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict) {
    err = "must be a dictionary {dataflow = ..., array = [..., ...]}";
    return false;
  }
  for (NamedAttribute a : dict)
    if (a.getName() != "dataflow" && a.getName() != "array" &&
        a.getName() != "cycles") {
      err = "has an unknown field '" + a.getName().str() +
            "' (expected dataflow, array, cycles)";
      return false;
    }
  auto df = dict.getAs<StringAttr>("dataflow");
  if (!df || !tiling::parseDataflow(df.str(), out.dataflow)) {
    err = "dataflow must be \"input_stationary\", \"output_stationary\" or "
          "\"weight_stationary\"";
    return false;
  }
  auto arr = dict.getAs<ArrayAttr>("array");
  if (!arr || arr.size() != 2) {
    err = "array must list two dimensions [<split by grid rows>, <split by "
          "grid columns>], each \"M\", \"N\" or \"K\"";
    return false;
  }
  for (unsigned i = 0; i < 2; ++i) {
    auto s = dyn_cast<StringAttr>(arr[i]);
    if (!s || !tiling::parseSplitDim(s.str(), out.array.dims[i])) {
      err = std::string("array[") + std::to_string(i) +
            "] must be \"M\", \"N\" or \"K\"";
      return false;
    }
  }
  if (auto c = dict.get("cycles"); c && !isa<IntegerAttr>(c)) {
    err = "cycles must be an integer";
    return false;
  }
  return true;
}

DictionaryAttr accel::mappingAttr(MLIRContext *ctx,
                                  const tiling::MappingChoice &c,
                                  int64_t cycles) {
  Builder b(ctx);
  SmallVector<NamedAttribute> attrs;
  attrs.push_back(b.getNamedAttr(
      "dataflow", b.getStringAttr(tiling::dataflowName(c.dataflow))));
  attrs.push_back(b.getNamedAttr(
      "array", b.getStrArrayAttr({tiling::splitDimName(c.array.dims[0]),
                                  tiling::splitDimName(c.array.dims[1])})));
  if (cycles >= 0)
    attrs.push_back(b.getNamedAttr("cycles", b.getI64IntegerAttr(cycles)));
  return b.getDictionaryAttr(attrs);
}
