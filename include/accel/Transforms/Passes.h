//===- Passes.h - Graph-level transforms ------------------------*- C++ -*-===//
#ifndef ACCEL_TRANSFORMS_PASSES_H
#define ACCEL_TRANSFORMS_PASSES_H

#include "Accel/AccelDialect.h"
#include "accel/Tiling/ArrayMapping.h"
#include "accel/Tiling/TileSelection.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"
#include <optional>

namespace accel {

/// Values of the enum-like options of select-tiling and select-mapping
/// (Passes.td lists their spellings with llvm::cl::values).
enum class OuterChoice { Auto, M, N };
enum class SplitKChoice { Auto, On, Off };
enum class TilingBaseline { None, NaiveOrder, Naive64, SquareSplitK };
enum class TilingRefine { None, Machine };
enum class DataflowChoice {
  Auto,
  InputStationary,
  OutputStationary,
  WeightStationary
};

/// Options of split-strategy (docs/labels-and-splits.md, "Passes").
enum class ParallelChoice { Auto, Model, Data, Hybrid, Best };
enum class SplitRounding { Ceil, Floor, Balanced, Clusters };
enum class MissingRowPolicy { Error, LeaveUnsplit };
enum class PowerOffSets { Full, Given };

#define GEN_PASS_DECL
#include "accel/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "accel/Transforms/Passes.h.inc"

/// The mapping an #accel.tiling stands for (outer, partition_m, partition_n,
/// partition_k); nullopt when `attr` is absent. The dialect's verifier
/// rejects any other kind of attribute under `accel.tiling`.
std::optional<tiling::Mapping> readTilingAttr(mlir::Attribute attr);

/// Reads an #accel.mapping. False with `err` when `attr` is not one (only
/// possible for IR that skipped the verifier).
bool parseMappingAttr(mlir::Attribute attr, tiling::MappingChoice &out,
                      std::string &err);
/// The attribute for `c` (with the modelled `cycles` when >= 0 and the
/// per-cluster boundaries of a split decision when given).
MappingAttr mappingAttr(mlir::MLIRContext *ctx, const tiling::MappingChoice &c,
                        int64_t cycles = -1,
                        llvm::ArrayRef<int64_t> ranges = {});
/// The per-cluster boundaries `ranges` of an #accel.mapping (empty when it
/// has none: the lowering splits evenly, tiling::splitRange).
std::vector<int64_t> mappingRanges(mlir::Attribute attr);
/// The dataflow / split dimension of the tiling library for an attribute
/// enum value, and back.
tiling::Dataflow toTiling(MappingDataflow d);
tiling::SplitDim toTiling(ArraySplit s);
ArraySplit toAttr(tiling::SplitDim s);

} // namespace accel

#endif
