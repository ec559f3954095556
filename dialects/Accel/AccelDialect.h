//===- AccelDialect.h - Typed compiler decisions ----------------*- C++ -*-===//
//
// The accel dialect (AccelDialect.td): the attributes accel.tiling,
// accel.mapping and accel.hw, their verifier, and the one way passes read
// the module's hardware description.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_ACCEL_ACCELDIALECT_H
#define ACCEL_ACCEL_ACCELDIALECT_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Split/Labels.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include <optional>

#include "Accel/AccelDialect.h.inc"
#include "Accel/AccelEnums.h.inc"

namespace accel {
/// One step of a fused epilogue (#accel.fusion `steps`): a unary SFU
/// function (its SfuFunc code, accel/Target/Sfu.h) with its immediate, or
/// the add of the residual operand.
struct FusionStep {
  bool residual = false;
  uint8_t func = 0;
  float imm = 0.0f;
  bool operator==(const FusionStep &o) const;
};
llvm::hash_code hash_value(const FusionStep &s);
} // namespace accel

namespace accel::detail {
// Parsers of the optional parameters of #accel.tiling (AccelAttrs.td).
mlir::FailureOr<std::optional<bool>> parseBoolKeyword(mlir::AsmParser &p);
mlir::FailureOr<std::optional<llvm::APFloat>> parseDouble(mlir::AsmParser &p);
mlir::FailureOr<std::optional<TilingStrategy>>
parseStrategy(mlir::AsmParser &p);
mlir::FailureOr<std::optional<MappingDataflow>>
parseDataflow(mlir::AsmParser &p);
// `[(0, 255), (256, 511)]` <-> flattened inclusive ranges (label ranges).
mlir::FailureOr<llvm::SmallVector<int64_t>>
parsePieceRanges(mlir::AsmParser &p);
void printPieceRanges(mlir::AsmPrinter &p, llvm::ArrayRef<int64_t> flat);
mlir::FailureOr<llvm::SmallVector<int64_t>> parseIntList(mlir::AsmParser &p);
// `[relu, min_imm(6.0), residual]` <-> #accel.fusion steps.
mlir::FailureOr<llvm::SmallVector<FusionStep>>
parseFusionSteps(mlir::AsmParser &p);
void printFusionSteps(mlir::AsmPrinter &p, llvm::ArrayRef<FusionStep> steps);
/// One part of #accel.label: a full `#accel.<mnemonic><...>` attribute.
template <typename AttrT>
mlir::FailureOr<AttrT> parseLabelPart(mlir::AsmParser &p) {
  llvm::SMLoc loc = p.getCurrentLocation();
  mlir::Attribute a;
  if (p.parseAttribute(a))
    return mlir::failure();
  if (auto t = llvm::dyn_cast<AttrT>(a))
    return t;
  return p.emitError(loc, "expected a ")
         << AttrT::getMnemonic() << " attribute";
}
} // namespace accel::detail

#define GET_ATTRDEF_CLASSES
#include "Accel/AccelAttrs.h.inc"

namespace accel {

/// The discardable attribute names the dialect owns (docs/passes.md).
inline constexpr const char *kTilingAttrName = "accel.tiling";
inline constexpr const char *kMappingAttrName = "accel.mapping";
inline constexpr const char *kHardwareAttrName = "accel.hw";
inline constexpr const char *kAccelNameAttrName = "accel.name";
/// Tensor labels: #accel.label on a function argument, an array of them
/// (one per result) on an op (docs/labels-and-splits.md).
inline constexpr const char *kLabelAttrName = "accel.label";
inline constexpr const char *kLabelsAttrName = "accel.labels";
/// The `parallel` mode whose database rows split-strategy's parallel=best
/// chose for a GEMM-shaped op: "model" | "data" | "hybrid"
/// (docs/labels-and-splits.md, "Split strategy and mapping: one decision").
inline constexpr const char *kParallelAttrName = "accel.parallel";
/// fuse-layers: #accel.fusion on the producing GEMM-shaped op, the unit
/// attribute accel.fused on each operator its epilogue replaces.
inline constexpr const char *kFusionAttrName = "accel.fusion";
inline constexpr const char *kFusedAttrName = "accel.fused";
/// depth-first-rows: the unit attribute accel.row_band on every op of a band
/// (its input slice, its layers and their fused chains). Their maps are
/// sized to fit what the kernels leave, so the lowering's residency reserve
/// does not count them (docs/passes.md, "depth-first-rows").
inline constexpr const char *kRowBandAttrName = "accel.row_band";
/// RNN decisions on graph.recurrent (docs/rnn.md): select-rnn-parallelism's
/// #accel.rnn_parallelism, schedule-rnn-threads' array of #accel.rnn_thread
/// (one per direction), and the task's arrival cycle (an i64 the user or a
/// multi-model plan sets; 0 when absent).
inline constexpr const char *kRnnParallelismAttrName = "accel.rnn_parallelism";
inline constexpr const char *kRnnThreadsAttrName = "accel.rnn_threads";
inline constexpr const char *kArrivalAttrName = "accel.arrival";

namespace detail {
/// The RNN attributes against their op (RnnAttrs.cpp).
mlir::LogicalResult verifyRnnParallelismOn(mlir::Operation *op,
                                           mlir::Attribute a);
mlir::LogicalResult verifyRnnThreadsOn(mlir::Operation *op, mlir::Attribute a);
mlir::LogicalResult verifyArrivalOn(mlir::Operation *op, mlir::Attribute a);
} // namespace detail

/// Tensor labels <-> the split library's structs (LabelAttrs.cpp).
split::StaticLabel toSplit(StaticLabelAttr a);
split::DynamicLabel toSplit(DynamicLabelAttr a);
StaticLabelAttr staticLabelAttr(mlir::MLIRContext *ctx,
                                const split::StaticLabel &s);
DynamicLabelAttr dynamicLabelAttr(mlir::MLIRContext *ctx,
                                  const split::DynamicLabel &d);

/// Registers the dialect and makes loading the graph dialect load it too,
/// so `accel.*` attributes on graph IR are always verified.
void registerAccelDialect(mlir::DialectRegistry &registry);

/// The module attribute for `hw` (the whole description).
HardwareAttr hardwareAttrFor(mlir::MLIRContext *ctx, const HardwareDesc &hw);
/// The description an #accel.hw carries; false with `err` naming the field
/// when it is not a valid description.
bool hardwareFromAttr(HardwareAttr attr, HardwareDesc &out, std::string &err);

/// The machine a module is compiled for: its `accel.hw` attribute, or the
/// built-in default preset when it has none. Every pass reads the hardware
/// through this function. Fails (with an error on the module) when the
/// attribute is not a valid #accel.hw.
mlir::LogicalResult moduleHardware(mlir::ModuleOp module, HardwareDesc &hw);

/// The #accel.hw of the description file `path`; null with `err` (naming
/// the file and the field) when it cannot be read or is invalid.
HardwareAttr readHardwareFile(mlir::MLIRContext *ctx, const std::string &path,
                              std::string &err);
/// Attaches `attr` to `module` as `accel.hw`. A module that already carries
/// a different machine (another fingerprint) is an error: the machine
/// enters the IR once.
mlir::LogicalResult attachHardware(mlir::ModuleOp module, HardwareAttr attr);
/// readHardwareFile + attachHardware, errors on the module
/// (accel-attach-hardware).
mlir::LogicalResult attachHardware(mlir::ModuleOp module,
                                   const std::string &path);

} // namespace accel

#endif
