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
#include "accel/Conversion/Passes.h"
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

static llvm::cl::opt<std::string>
    accelHw("accel-hw",
            llvm::cl::desc("hardware description JSON, attached to the module "
                           "as accel.hw before the pipeline runs (default: "
                           "the built-in preset)"),
            llvm::cl::value_desc("file"), llvm::cl::init(""));

/// What MlirOptMain(argc, argv, ...) does, with a pass-pipeline setup that
/// runs accel-attach-hardware before the pipeline given on the command line
/// (MlirOptMainConfig::setPassPipelineSetupFn).
static mlir::LogicalResult runOpt(int argc, char **argv,
                                  mlir::DialectRegistry &registry) {
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "accel optimizer driver\n", registry);
  mlir::MlirOptMainConfig cl = mlir::MlirOptMainConfig::createFromCLOptions();
  if (cl.shouldListPasses()) {
    mlir::printRegisteredPasses();
    return mlir::success();
  }
  if (cl.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: "
                 << llvm::join(registry.getDialectNames(), ", ") << "\n";
    return mlir::success();
  }
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
  std::string err;
  auto input = mlir::openInputFile(inputFile, &err);
  if (!input) {
    llvm::errs() << err << "\n";
    return mlir::failure();
  }
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
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect>();
  accel::registerAccelDialect(registry);
  accel::registerAccelConversionPasses();
  accel::registerAccelTransformsPasses();
  accel::registerAccelPipelines();
  return mlir::asMainReturnCode(runOpt(argc, argv, registry));
}
