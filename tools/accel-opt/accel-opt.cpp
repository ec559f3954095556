//===- accel-opt.cpp - The accelerator's mlir-opt -------------------------===//
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  registry.insert<accel::graph::GraphDialect, accel::isa::IsaDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "accel optimizer driver\n", registry));
}
