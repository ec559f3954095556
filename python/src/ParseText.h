//===- ParseText.h - MLIR text for the extension ----------------*- C++ -*-===//
#ifndef ACCEL_PYTHON_PARSETEXT_H
#define ACCEL_PYTHON_PARSETEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace accelpy {

/// The module in `buffer`, after the tools' nesting check; throws
/// ModelError with the parser's diagnostics (and the offending source line).
mlir::OwningOpRef<mlir::ModuleOp>
parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer,
                mlir::MLIRContext &ctx);

} // namespace accelpy

#endif
