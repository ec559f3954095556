//===- Pipelines.cpp - Named pass pipelines -------------------------------===//
//
// accel-default-pipeline: what `accel-compile` runs on graph-dialect input
// (also after the ONNX importer). It legalises any TOSA / linalg left in the
// module, canonicalises, selects the GEMM tilings (select-tiling) and the
// dataflow / array partition (select-mapping), and lowers
// to one isa.program.
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/Passes.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
struct DefaultPipelineOptions
    : public PassPipelineOptions<DefaultPipelineOptions> {
  Option<std::string> hw{*this, "hw",
                         llvm::cl::desc("hardware description JSON "
                                        "(empty = built-in default)"),
                         llvm::cl::init("")};
  Option<std::string> depthwise{
      *this, "depthwise",
      llvm::cl::desc("depthwise conv2d: sw (sliding-window queue kernel) or "
                     "gemm (implicit GEMM per group)"),
      llvm::cl::init("sw")};
};
} // namespace

void accel::buildDefaultPipeline(OpPassManager &pm, const std::string &hwPath,
                                 const std::string &depthwise) {
  pm.addPass(createConvertTosaLinalgToGraph());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createFoldBatchNorm());
  SelectTilingOptions tilingOpts;
  tilingOpts.hwPath = hwPath;
  pm.addPass(createSelectTiling(tilingOpts));
  SelectMappingOptions mappingOpts;
  mappingOpts.hwPath = hwPath;
  pm.addPass(createSelectMapping(mappingOpts));
  ConvertGraphToIsaOptions opts;
  opts.hwPath = hwPath;
  opts.depthwise = depthwise;
  pm.addPass(createConvertGraphToIsa(opts));
}

void accel::registerAccelPipelines() {
  PassPipelineRegistration<DefaultPipelineOptions>(
      "accel-default-pipeline",
      "Import legalisation, canonicalisation and lowering to the ISA",
      [](OpPassManager &pm, const DefaultPipelineOptions &o) {
        buildDefaultPipeline(pm, o.hw, o.depthwise);
      });
}
