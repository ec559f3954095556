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
#include "accel/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect>();
  accel::registerAccelConversionPasses();
  accel::registerAccelTransformsPasses();
  accel::registerAccelPipelines();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "accel optimizer driver\n", registry);
  // A directory, device or FIFO as input would hang or exhaust memory in
  // the source manager; stdin ("-") stays allowed.
  std::string err;
  uint64_t size;
  if (inputFile != "-" &&
      !accel::checkRegularFile(inputFile, "input file",
                               accel::kMaxDataFileBytes, size, err)) {
    llvm::errs() << "accel-opt: error: " << err << "\n";
    return 1;
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
}
