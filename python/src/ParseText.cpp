//===- ParseText.cpp - MLIR text for the extension ------------------------===//
#include "ParseText.h"
#include "Bindings.h"
#include "accel/Support/ParseGuard.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace accelpy {

OwningOpRef<ModuleOp>
parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer, MLIRContext &ctx) {
  std::string err;
  llvm::raw_string_ostream os(err);
  if (!accel::checkTextNesting(*buffer, os))
    throw Error(ErrorKind::Model, err);
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sm, &ctx, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, &ctx);
  if (!module)
    throw Error(ErrorKind::Model, err);
  return module;
}

} // namespace accelpy
