//===- accel-opt.cpp - The accelerator's mlir-opt -------------------------===//
//
// All upstream dialects and passes plus ours: the graph, ISA and accel
// dialects, the conversion passes and the named pipelines. One option of
// its own: `--accel-hw=FILE` attaches the hardware description to the
// module (accel-attach-hardware) before the user's pipeline, so every pass
// reads the machine from the IR (docs/passes.md).
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "MultiNet/MultiNetDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

static llvm::cl::opt<std::string>
    accelHw("accel-hw",
            llvm::cl::desc("hardware description JSON, attached to the module "
                           "as accel.hw before the pipeline runs (default: "
                           "the built-in preset)"),
            llvm::cl::value_desc("file"), llvm::cl::init(""));

/// The config of MlirOptMain(argc, argv, ...), with a pass-pipeline setup
/// that runs accel-attach-hardware before the pipeline given on the command
/// line (MlirOptMainConfig::setPassPipelineSetupFn).
static mlir::MlirOptMainConfig configWithHardware() {
  mlir::MlirOptMainConfig cl = mlir::MlirOptMainConfig::createFromCLOptions();
  mlir::MlirOptMainConfig config = cl;
  std::string hwFile = accelHw;
  config.setPassPipelineSetupFn([cl, hwFile](mlir::PassManager &pm) {
    if (!hwFile.empty()) {
      accel::AttachHardwareOptions attach;
      attach.file = hwFile;
      pm.addPass(accel::createAttachHardware(attach));
    }
    return cl.setupPassPipeline(pm);
  });
  return config;
}

/// MlirOptMain on one input, which is read once and refused when it is not a
/// regular file (a directory, device or FIFO would hang or exhaust memory in
/// the source manager; stdin "-" stays allowed) or when it nests deeper than
/// accel::kMaxTextNesting.
static mlir::LogicalResult runOpt(const std::string &inputFile,
                                  const std::string &outputFile,
                                  mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config = configWithHardware();
  if (config.shouldListPasses()) {
    mlir::printRegisteredPasses();
    return mlir::success();
  }
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: "
                 << llvm::join(registry.getDialectNames(), ", ") << "\n";
    return mlir::success();
  }
  std::string err;
  uint64_t size;
  if (inputFile != "-" &&
      !accel::checkRegularFile(inputFile, "input file",
                               accel::kMaxDataFileBytes, size, err)) {
    llvm::errs() << "accel-opt: error: " << err << "\n";
    return mlir::failure();
  }
  auto input = mlir::openInputFile(inputFile, &err);
  if (!input) {
    llvm::errs() << err << "\n";
    return mlir::failure();
  }
  if (!accel::checkTextNesting(*input, llvm::errs()))
    return mlir::failure();
  auto output = mlir::openOutputFile(outputFile, &err);
  if (!output) {
    llvm::errs() << err << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect,
                  accel::multinet::MultiNetDialect>();
  accel::registerAccelDialect(registry);
  accel::registerAccelConversionPasses();
  accel::registerAccelTransformsPasses();
  accel::registerAccelPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "accel optimizer driver\n", registry);
  // Parsing, passes and printing recurse per level of IR nesting.
  return accel::runOnLargeStack([&, in = input, out = output] {
    return mlir::asMainReturnCode(runOpt(in, out, registry));
  });
}
