//===- accel-opt.cpp - The accelerator's mlir-opt -------------------------===//
//
// All upstream dialects and passes plus ours: the graph and ISA dialects,
// the conversion passes and the named pipelines.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <tuple>

/// MlirOptMain for one input, which is read once and refused when it nests
/// deeper than accel::kMaxTextNesting.
static int optMain(int argc, char **argv, const std::string &input,
                   const std::string &output, mlir::DialectRegistry &registry) {
  auto config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses()) // no input
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &err);
  if (!file) {
    llvm::errs() << err << "\n";
    return 1;
  }
  if (!accel::checkTextNesting(*file, llvm::errs()))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &err);
  if (!out) {
    llvm::errs() << err << "\n";
    return 1;
  }
  if (failed(mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return 1;
  out->keep();
  return 0;
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect>();
  accel::registerAccelConversionPasses();
  accel::registerAccelTransformsPasses();
  accel::registerAccelPipelines();
  std::string input, output;
  std::tie(input, output) = mlir::registerAndParseCLIOptions(
      argc, argv, "accel optimizer driver\n", registry);
  // A directory, device or FIFO as input would hang or exhaust memory in
  // the source manager; stdin ("-") stays allowed.
  std::string err;
  uint64_t size;
  if (input != "-" &&
      !accel::checkRegularFile(input, "input file", accel::kMaxDataFileBytes,
                               size, err)) {
    llvm::errs() << "accel-opt: error: " << err << "\n";
    return 1;
  }
  // Parsing, passes and printing recurse per level of IR nesting.
  return accel::runOnLargeStack(
      [&] { return optMain(argc, argv, input, output, registry); });
}
