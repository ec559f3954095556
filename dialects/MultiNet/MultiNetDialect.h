//===- MultiNetDialect.h - The multinet dialect -----------------*- C++ -*-===//
//
// Several networks as processes on execution units (spec/multi-network.md);
// ops and attributes in MultiNetOps.td, the scheduling in lib/MultiNet.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_DIALECTS_MULTINET_MULTINETDIALECT_H
#define ACCEL_DIALECTS_MULTINET_MULTINETDIALECT_H

#include "accel/MultiNet/Plan.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/Hashing.h"

namespace accel::multinet {
/// Attribute storage hashes its parameters (ArrayRef<Coord>).
inline llvm::hash_code hash_value(const Coord &c) {
  return llvm::hash_combine(c.x, c.y);
}
} // namespace accel::multinet

#include "MultiNet/MultiNetOpsDialect.h.inc"
#include "MultiNet/MultiNetOpsEnums.h.inc"
#define GET_TYPEDEF_CLASSES
#include "MultiNet/MultiNetOpsTypes.h.inc"
#define GET_ATTRDEF_CLASSES
#include "MultiNet/MultiNetOpsAttrDefs.h.inc"
#define GET_OP_CLASSES
#include "MultiNet/MultiNetOps.h.inc"

#endif
