//===- Passes.h - Graph-level transforms ------------------------*- C++ -*-===//
#ifndef ACCEL_TRANSFORMS_PASSES_H
#define ACCEL_TRANSFORMS_PASSES_H

#include "accel/Tiling/ArrayMapping.h"
#include "accel/Tiling/TileSelection.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <optional>

namespace accel {

#define GEN_PASS_DECL
#include "accel/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "accel/Transforms/Passes.h.inc"

/// Name of the tiling decision attribute (docs/passes.md, select-tiling).
inline constexpr const char *kTilingAttrName = "accel.tiling";

/// The mapping an `accel.tiling` dictionary stands for (outer, partition_m,
/// partition_n, partition_k); nullopt when absent or malformed.
inline std::optional<tiling::Mapping> readTilingAttr(mlir::Attribute attr) {
  auto dict = mlir::dyn_cast_or_null<mlir::DictionaryAttr>(attr);
  if (!dict)
    return std::nullopt;
  auto getInt = [&](llvm::StringRef name) -> int64_t {
    auto a = dict.getAs<mlir::IntegerAttr>(name);
    return a ? a.getInt() : 0;
  };
  auto outer = dict.getAs<mlir::StringAttr>("outer");
  tiling::Mapping m;
  m.outerRowMajor = !outer || outer.getValue() != "n";
  m.partitionM = getInt("partition_m");
  m.partitionN = getInt("partition_n");
  m.partitionK = getInt("partition_k");
  if (m.partitionM <= 0 || m.partitionN <= 0 || m.partitionK <= 0)
    return std::nullopt;
  return m;
}

/// Name of the mapping attribute (docs/mapping.md, select-mapping):
/// `{dataflow = "input_stationary" | "output_stationary" |
/// "weight_stationary", array = ["M"|"N"|"K", "M"|"N"|"K"], cycles = N}`
/// (`cycles`, the modelled cost, is optional and informational).
inline constexpr const char *kMappingAttrName = "accel.mapping";

/// Reads an `accel.mapping` attribute. False with `err` (a sentence naming
/// the bad field and the accepted values) when it is malformed.
bool parseMappingAttr(mlir::Attribute attr, tiling::MappingChoice &out,
                      std::string &err);
/// The attribute for `c` (with the modelled `cycles` when >= 0).
mlir::DictionaryAttr mappingAttr(mlir::MLIRContext *ctx,
                                 const tiling::MappingChoice &c,
                                 int64_t cycles = -1);

} // namespace accel

#endif
