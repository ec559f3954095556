//===- AccelDialect.cpp - The accel dialect and its attribute verifier ----===//
//
// verifyOperationAttribute is where a decision meets its op: a tiling on an
// op that is not GEMM-shaped, partitions beyond the op's GEMM, a hardware
// description anywhere but on the module are verifier errors naming the op
// and the field (docs/passes.md). The attributes' own invariants (positive
// partitions, a valid description) are in AccelAttrs.cpp.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Accel/GemmProblem.h"
#include "Graph/GraphDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace accel;

#include "Accel/AccelDialect.cpp.inc"

void AccelDialect::initialize() { registerAttributes(); }

namespace {
void loadAccelWithGraph(MLIRContext *ctx, graph::GraphDialect *) {
  ctx->getOrLoadDialect<AccelDialect>();
}

bool isGemmShaped(Operation *op) {
  return isa<graph::MatMulOp, graph::GemmOp, graph::Conv2DOp>(op);
}

/// "'graph.matmul' op accel.tiling: " + the rest.
InFlightDiagnostic fieldError(Operation *op, StringRef attrName) {
  return op->emitOpError() << attrName << ": ";
}

LogicalResult checkPartition(Operation *op, StringRef field, int64_t value,
                             StringRef dim, int64_t bound) {
  if (value > bound)
    return fieldError(op, kTilingAttrName)
           << field << " = " << value << " exceeds the GEMM's " << dim << " = "
           << bound;
  return success();
}

LogicalResult checkTiling(Operation *op, TilingAttr t) {
  // Context-free invariants were checked when the attribute was built; a
  // field that is still non-positive here came from a dictionary or a
  // foreign builder, so repeat the check with the op named.
  for (auto [field, v] :
       {std::pair<StringRef, int64_t>{"partition_m", t.getPartitionM()},
        {"partition_n", t.getPartitionN()},
        {"partition_k", t.getPartitionK()}})
    if (v <= 0)
      return fieldError(op, kTilingAttrName)
             << field << " must be >= 1, got " << v;
  tiling::GemmProblem p;
  bool withInit;
  if (!transforms::problemOf(op, /*elemBytes=*/4, p, withInit))
    return success(); // the op's own verifier reports its shapes
  if (failed(checkPartition(op, "partition_m", t.getPartitionM(), "m", p.m)) ||
      failed(checkPartition(op, "partition_n", t.getPartitionN(), "n", p.n)) ||
      failed(checkPartition(op, "partition_k", t.getPartitionK(), "k", p.k)))
    return failure();
  if (t.getSplitK() && *t.getSplitK() != (t.getPartitionK() < p.k))
    return fieldError(op, kTilingAttrName)
           << "split_k = " << (*t.getSplitK() ? "true" : "false")
           << " contradicts partition_k = " << t.getPartitionK()
           << " and the GEMM's k = " << p.k
           << " (split_k means partition_k < k)";
  return success();
}

/// The boundaries of a split decision end at the GEMM's extent of their dim.
LogicalResult checkMappingRanges(Operation *op, MappingAttr m) {
  if (m.getRanges().empty())
    return success();
  tiling::GemmProblem p;
  bool withInit;
  if (!transforms::problemOf(op, /*elemBytes=*/4, p, withInit))
    return success();
  int64_t extent = m.getRows() == ArraySplit::M   ? p.m
                   : m.getRows() == ArraySplit::N ? p.n
                                                  : p.k;
  if (m.getRanges().back() != extent)
    return fieldError(op, kMappingAttrName)
           << "ranges end at " << m.getRanges().back() << ", the GEMM's "
           << stringifyArraySplit(m.getRows()) << " is " << extent;
  return success();
}

/// The label type name of an element type ("float32"); empty if none.
std::string labelTypeName(Type t) {
  if (t.isF32())
    return "float32";
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t))
    return "int" + std::to_string(i.getWidth());
  return "";
}

/// A label against the tensor it describes: its shape and element type.
LogicalResult checkLabel(function_ref<InFlightDiagnostic()> emitError,
                         StringRef what, Attribute a, Type valueType) {
  auto label = dyn_cast<LabelAttr>(a);
  if (!label)
    return emitError() << what << ": expected an #accel.label<...>, got " << a;
  auto t = dyn_cast<RankedTensorType>(valueType);
  if (!t)
    return emitError() << what << ": labels describe ranked tensors, not "
                       << valueType;
  StaticLabelAttr s = label.getStaticLabel();
  if (s.getDims() != t.getShape())
    return emitError() << what << ": static dims [" << s.getDims()
                       << "] differ from the tensor's shape [" << t.getShape()
                       << "]";
  if (s.getType() != labelTypeName(t.getElementType()))
    return emitError() << what << ": static type " << s.getType()
                       << " differs from the tensor's element type "
                       << t.getElementType();
  return success();
}

LogicalResult verifyLabelsAttr(Operation *op, NamedAttribute attr) {
  auto arr = dyn_cast<ArrayAttr>(attr.getValue());
  if (!arr || arr.size() != op->getNumResults())
    return op->emitOpError()
           << kLabelsAttrName << ": expected an array of "
           << op->getNumResults() << " #accel.label (one per result), got "
           << attr.getValue();
  for (auto [i, a] : llvm::enumerate(arr)) {
    std::string what =
        std::string(kLabelsAttrName) + "[" + std::to_string(i) + "]";
    if (failed(checkLabel([&] { return op->emitOpError(); }, what, a,
                          op->getResult(i).getType())))
      return failure();
  }
  return success();
}

LogicalResult verifyArgLabel(Operation *op, unsigned arg, NamedAttribute attr) {
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn || arg >= fn.getNumArguments())
    return op->emitOpError()
           << kLabelAttrName << " belongs on a function argument";
  std::string what =
      std::string(kLabelAttrName) + " of argument " + std::to_string(arg);
  return checkLabel([&] { return op->emitOpError(); }, what, attr.getValue(),
                    fn.getArgumentTypes()[arg]);
}

LogicalResult verifyDecisionAttr(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (!isGemmShaped(op))
    return op->emitOpError()
           << name
           << " applies to graph.matmul, graph.gemm and graph.conv2d only";
  if (name == kTilingAttrName) {
    auto t = dyn_cast<TilingAttr>(attr.getValue());
    if (!t)
      return fieldError(op, name)
             << "expected an #accel.tiling<...> attribute, got "
             << attr.getValue();
    return checkTiling(op, t);
  }
  auto m = dyn_cast<MappingAttr>(attr.getValue());
  if (!m)
    return fieldError(op, name)
           << "expected an #accel.mapping<...> attribute, got "
           << attr.getValue();
  return checkMappingRanges(op, m);
}

LogicalResult verifyNameAttr(Operation *op, NamedAttribute attr) {
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitOpError() << kAccelNameAttrName
                             << ": expected a string, got " << attr.getValue();
  return success();
}

LogicalResult verifyParallelAttr(Operation *op, NamedAttribute attr) {
  if (!isGemmShaped(op))
    return op->emitOpError()
           << kParallelAttrName
           << " applies to graph.matmul, graph.gemm and graph.conv2d only";
  auto s = dyn_cast<StringAttr>(attr.getValue());
  if (!s || !llvm::is_contained({"model", "data", "hybrid"}, s.getValue()))
    return fieldError(op, kParallelAttrName)
           << "expected one of \"model\", \"data\", \"hybrid\", got "
           << attr.getValue();
  return success();
}

InFlightDiagnostic unknownAttr(Operation *op, StringRef name) {
  return op->emitOpError() << "unknown attribute '" << name
                           << "' of the accel dialect (known: "
                           << kTilingAttrName << ", " << kMappingAttrName
                           << ", " << kHardwareAttrName << ", "
                           << kAccelNameAttrName << ", " << kLabelAttrName
                           << " on arguments, " << kLabelsAttrName << ", "
                           << kParallelAttrName << ", " << kFusionAttrName
                           << ", " << kFusedAttrName << ", " << kRowBandAttrName
                           << ", " << kRnnParallelismAttrName << ", "
                           << kRnnThreadsAttrName << ", " << kArrivalAttrName
                           << ")";
}
} // namespace

void accel::registerAccelDialect(DialectRegistry &registry) {
  registry.insert<AccelDialect>();
  registry.addExtension(&loadAccelWithGraph);
}

LogicalResult AccelDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kTilingAttrName || name == kMappingAttrName)
    return verifyDecisionAttr(op, attr);
  if (name == kHardwareAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError()
             << kHardwareAttrName << " belongs on the module, not on an op";
    if (!isa<HardwareAttr>(attr.getValue()))
      return fieldError(op, name)
             << "expected an #accel.hw<...> attribute, got " << attr.getValue();
    return success();
  }
  if (name == kAccelNameAttrName)
    return verifyNameAttr(op, attr);
  if (name == kLabelsAttrName)
    return verifyLabelsAttr(op, attr);
  if (name == kParallelAttrName)
    return verifyParallelAttr(op, attr);
  if (name == kFusionAttrName) {
    // The GEMM-shaped ops and conv_transpose2d (whose non-overlapping form
    // is a GEMM; the overlapping one runs the chain as one SFU pass).
    if (!isGemmShaped(op) && !isa<graph::ConvTranspose2DOp>(op))
      return op->emitOpError() << name
                               << " applies to graph.matmul, graph.gemm, "
                                  "graph.conv2d and graph.conv_transpose2d "
                                  "only";
    if (!isa<FusionAttr>(attr.getValue()))
      return fieldError(op, name) << "expected an #accel.fusion<...> "
                                     "attribute, got "
                                  << attr.getValue();
    return success();
  }
  if (name == kFusedAttrName || name == kRowBandAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << name << " is a unit attribute";
    return success();
  }
  if (name == kRnnParallelismAttrName)
    return detail::verifyRnnParallelismOn(op, attr.getValue());
  if (name == kRnnThreadsAttrName)
    return detail::verifyRnnThreadsOn(op, attr.getValue());
  if (name == kArrivalAttrName)
    return detail::verifyArrivalOn(op, attr.getValue());
  return unknownAttr(op, name);
}

LogicalResult AccelDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned /*region*/,
                                                     unsigned arg,
                                                     NamedAttribute attr) {
  if (attr.getName().getValue() == kAccelNameAttrName)
    return verifyNameAttr(op, attr);
  if (attr.getName().getValue() == kLabelAttrName)
    return verifyArgLabel(op, arg, attr);
  return unknownAttr(op, attr.getName().getValue());
}

LogicalResult AccelDialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned /*region*/,
                                                        unsigned /*result*/,
                                                        NamedAttribute attr) {
  if (attr.getName().getValue() == kAccelNameAttrName)
    return verifyNameAttr(op, attr);
  return unknownAttr(op, attr.getName().getValue());
}
