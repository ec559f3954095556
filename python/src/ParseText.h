//===- ParseText.h - MLIR text for the extension ----------------*- C++ -*-===//
#ifndef ACCEL_PYTHON_PARSETEXT_H
#define ACCEL_PYTHON_PARSETEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace accelpy {

/// The module parsed from MLIR text, after the tools' nesting check; throws
/// ModelError with the parser's diagnostics (and the offending source
/// line). The source manager and its diagnostic handler live as long as
/// the object, so passes run on `module` later report with source lines
/// into `errors` too.
class TextModule {
public:
  TextModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
             mlir::MLIRContext &ctx);
  std::string errors;
  mlir::OwningOpRef<mlir::ModuleOp> module;

private:
  llvm::raw_string_ostream os{errors};
  llvm::SourceMgr sm;
  mlir::SourceMgrDiagnosticHandler handler;
};

/// TextModule's module alone (its later diagnostics go to the context's
/// default handler).
mlir::OwningOpRef<mlir::ModuleOp>
parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer,
                mlir::MLIRContext &ctx);

} // namespace accelpy

#endif
