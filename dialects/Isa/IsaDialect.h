//===- IsaDialect.h - Buffer-level ISA dialect ------------------*- C++ -*-===//
#ifndef ACCEL_ISA_ISADIALECT_H
#define ACCEL_ISA_ISADIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

namespace accel::isa {
/// `layer N` of a command is an index into the layer table of the
/// enclosing isa.program (its `layers`).
mlir::LogicalResult verifyLayerIndex(mlir::Operation *op);

template <typename ConcreteType>
class InLayerTable
    : public mlir::OpTrait::TraitBase<ConcreteType, InLayerTable> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyLayerIndex(op);
  }
};
} // namespace accel::isa

#include "Isa/IsaEnums.h.inc"
#include "Isa/IsaOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Isa/IsaAttrs.h.inc"

#define GET_OP_CLASSES
#include "Isa/IsaOps.h.inc"

#endif
