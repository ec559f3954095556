//===- ParseText.cpp - MLIR text for the extension ------------------------===//
#include "ParseText.h"
#include "Bindings.h"
#include "accel/Support/ParseGuard.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace accelpy {

TextModule::TextModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                       MLIRContext &ctx)
    : handler(sm, &ctx, os) {
  if (!accel::checkTextNesting(*buffer, os))
    throw Error(ErrorKind::Model, errors);
  sm.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  module = parseSourceFile<ModuleOp>(sm, &ctx);
  if (!module)
    throw Error(ErrorKind::Model, errors);
}

OwningOpRef<ModuleOp>
parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer, MLIRContext &ctx) {
  TextModule text(std::move(buffer), ctx);
  return std::move(text.module);
}

} // namespace accelpy
