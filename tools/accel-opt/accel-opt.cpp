//===- accel-opt.cpp - The accelerator's mlir-opt -------------------------===//
//
// All upstream dialects and passes plus ours: the graph and ISA dialects,
// the conversion passes and the named pipelines.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect>();
  accel::registerAccelConversionPasses();
  accel::registerAccelTransformsPasses();
  accel::registerAccelPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "accel optimizer driver\n", registry);
  if (!accel::checkFileNesting(input, llvm::errs()))
    return 1;
  // Parsing, passes and printing recurse per level of IR nesting.
  return accel::runOnLargeStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  });
}
