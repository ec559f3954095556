//===- MappingAttr.cpp - #accel.tiling / #accel.mapping <-> AccelTiling ---===//
//
// One place that converts between the typed attributes (dialects/Accel) and
// the tiling library's structs: select-mapping writes #accel.mapping,
// select-mapping and convert-graph-to-isa read #accel.tiling and
// #accel.mapping.
//
//===----------------------------------------------------------------------===//
#include "accel/Transforms/Passes.h"

using namespace mlir;
using namespace accel;

std::optional<tiling::Mapping> accel::readTilingAttr(Attribute attr) {
  auto t = dyn_cast_or_null<TilingAttr>(attr);
  if (!t)
    return std::nullopt;
  tiling::Mapping m;
  m.outerRowMajor = t.getOuter() == OuterLoop::M;
  m.partitionM = t.getPartitionM();
  m.partitionN = t.getPartitionN();
  m.partitionK = t.getPartitionK();
  return m;
}

tiling::Dataflow accel::toTiling(MappingDataflow d) {
  switch (d) {
  case MappingDataflow::InputStationary:
    return tiling::Dataflow::InputStationary;
  case MappingDataflow::OutputStationary:
    return tiling::Dataflow::OutputStationary;
  case MappingDataflow::WeightStationary:
    return tiling::Dataflow::WeightStationary;
  }
  llvm_unreachable("unknown dataflow");
}

tiling::SplitDim accel::toTiling(ArraySplit s) {
  switch (s) {
  case ArraySplit::M:
    return tiling::SplitDim::M;
  case ArraySplit::N:
    return tiling::SplitDim::N;
  case ArraySplit::K:
    return tiling::SplitDim::K;
  case ArraySplit::None:
    return tiling::SplitDim::None;
  case ArraySplit::B:
    return tiling::SplitDim::B;
  }
  llvm_unreachable("unknown split dimension");
}

ArraySplit accel::toAttr(tiling::SplitDim s) {
  switch (s) {
  case tiling::SplitDim::M:
    return ArraySplit::M;
  case tiling::SplitDim::N:
    return ArraySplit::N;
  case tiling::SplitDim::K:
    return ArraySplit::K;
  case tiling::SplitDim::None:
    return ArraySplit::None;
  case tiling::SplitDim::B:
    return ArraySplit::B;
  }
  llvm_unreachable("unknown split dimension");
}

namespace {
MappingDataflow dataflowAttr(tiling::Dataflow d) {
  switch (d) {
  case tiling::Dataflow::InputStationary:
    return MappingDataflow::InputStationary;
  case tiling::Dataflow::OutputStationary:
    return MappingDataflow::OutputStationary;
  case tiling::Dataflow::WeightStationary:
    return MappingDataflow::WeightStationary;
  }
  llvm_unreachable("unknown dataflow");
}
} // namespace

bool accel::parseMappingAttr(Attribute attr, tiling::MappingChoice &out,
                             std::string &err) {
  auto m = dyn_cast_or_null<MappingAttr>(attr);
  if (!m) {
    err = "expected an #accel.mapping<...> attribute";
    return false;
  }
  // A split decision without a dataflow yet (select-mapping not run):
  // output stationary, the kernel's default.
  out.dataflow = m.getDataflow() ? toTiling(*m.getDataflow())
                                 : tiling::Dataflow::OutputStationary;
  out.array.dims = {toTiling(m.getRows()), toTiling(m.getCols())};
  return true;
}

std::vector<int64_t> accel::mappingRanges(Attribute attr) {
  auto m = dyn_cast_or_null<MappingAttr>(attr);
  if (!m)
    return {};
  return std::vector<int64_t>(m.getRanges().begin(), m.getRanges().end());
}

MappingAttr accel::mappingAttr(MLIRContext *ctx, const tiling::MappingChoice &c,
                               int64_t cycles, llvm::ArrayRef<int64_t> ranges) {
  return MappingAttr::get(
      ctx, dataflowAttr(c.dataflow), toAttr(c.array.dims[0]),
      toAttr(c.array.dims[1]), ranges,
      cycles >= 0 ? std::optional<int64_t>(cycles) : std::nullopt);
}
