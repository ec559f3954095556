//===- Pipelines.cpp - Named pass pipelines -------------------------------===//
//
// accel-default-pipeline: what `accel-compile` runs on graph-dialect input
// (also after the ONNX importer). It legalises any TOSA / linalg left in the
// module, canonicalises, labels the tensors and splits them by the
// architecture's strategy database (tensor-labeling, split-strategy: the
// cluster partition of GEMM-shaped ops), selects the GEMM tilings
// (select-tiling) and the dataflow (select-mapping), and lowers to one
// isa.program. Its options are convert-graph-to-isa's own: the option string
// is handed to that pass's parser, so they are declared once (Passes.td).
// The machine is the module's accel.hw (accel-opt --accel-hw=FILE).
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/Passes.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void accel::buildDefaultPipeline(OpPassManager &pm, const std::string &hwPath,
                                 std::unique_ptr<Pass> lowering) {
  if (!hwPath.empty()) {
    AttachHardwareOptions attach;
    attach.file = hwPath;
    pm.addPass(createAttachHardware(attach));
  }
  pm.addPass(createConvertTosaLinalgToGraph());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createFoldBatchNorm());
  // Labels and splits of every tensor (docs/labels-and-splits.md) before
  // the tilings. The partition stays select-mapping's cost-based choice
  // (partition=false): split-strategy's decision is opt-in
  // (accel-opt --split-strategy) until its cost is modelled.
  pm.addPass(createTensorLabeling());
  SplitStrategyOptions split;
  split.partition = false;
  pm.addPass(createSplitStrategy(split));
  pm.addPass(createSelectTiling());
  pm.addPass(createSelectMapping());
  pm.addPass(lowering ? std::move(lowering) : createConvertGraphToIsa());
}

void accel::registerAccelPipelines() {
  registerPassPipeline(
      "accel-default-pipeline",
      "Import legalisation, canonicalisation and lowering to the ISA; its "
      "options are those of --convert-graph-to-isa (listed there)",
      [](OpPassManager &pm, StringRef options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        FailureOr<std::unique_ptr<Pass>> lowering =
            createConvertGraphToIsaFromString(options, errorHandler);
        if (failed(lowering))
          return failure();
        buildDefaultPipeline(pm, "", std::move(*lowering));
        return success();
      },
      // mlir::Pass keeps its option set private, so the options are listed
      // once, under convert-graph-to-isa.
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
}
