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
  if (!isa<MappingAttr>(attr.getValue()))
    return fieldError(op, name)
           << "expected an #accel.mapping<...> attribute, got "
           << attr.getValue();
  return success();
}

LogicalResult verifyNameAttr(Operation *op, NamedAttribute attr) {
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitOpError() << kAccelNameAttrName
                             << ": expected a string, got " << attr.getValue();
  return success();
}

InFlightDiagnostic unknownAttr(Operation *op, StringRef name) {
  return op->emitOpError() << "unknown attribute '" << name
                           << "' of the accel dialect (known: "
                           << kTilingAttrName << ", " << kMappingAttrName
                           << ", " << kHardwareAttrName << ", "
                           << kAccelNameAttrName << ")";
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
  return unknownAttr(op, name);
}

LogicalResult AccelDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned /*region*/,
                                                     unsigned /*arg*/,
                                                     NamedAttribute attr) {
  if (attr.getName().getValue() == kAccelNameAttrName)
    return verifyNameAttr(op, attr);
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
