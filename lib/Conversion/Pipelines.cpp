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
  Option<std::string> conv{
      *this, "conv",
      llvm::cl::desc("regular conv2d: gemm (implicit GEMM) or rq (rotating "
                     "weight-queue kernel, falls back to gemm)"),
      llvm::cl::init("gemm")};
  Option<std::string> sparseWeights{
      *this, "sparse-weights",
      llvm::cl::desc("off | auto (convert-graph-to-isa)"),
      llvm::cl::init("auto")};
  Option<double> sparseThreshold{
      *this, "sparse-threshold",
      llvm::cl::desc("minimum zero fraction for sparse weights"),
      llvm::cl::init(0.5)};
  Option<bool> loadBalance{*this, "load-balance",
                           llvm::cl::desc("MAC load-balancing bit"),
                           llvm::cl::init(false)};
  Option<std::string> sfuMode{*this, "sfu-mode",
                              llvm::cl::desc("chained | decoupled"),
                              llvm::cl::init("chained")};
};
} // namespace

void accel::buildDefaultPipeline(OpPassManager &pm, const std::string &hwPath,
                                 const ConvertGraphToIsaOptions &lowering) {
  pm.addPass(createConvertTosaLinalgToGraph());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createFoldBatchNorm());
  SelectTilingOptions tilingOpts;
  tilingOpts.hwPath = hwPath;
  pm.addPass(createSelectTiling(tilingOpts));
  SelectMappingOptions mappingOpts;
  mappingOpts.hwPath = hwPath;
  pm.addPass(createSelectMapping(mappingOpts));
  ConvertGraphToIsaOptions opts = lowering;
  opts.hwPath = hwPath;
  pm.addPass(createConvertGraphToIsa(opts));
}

void accel::registerAccelPipelines() {
  PassPipelineRegistration<DefaultPipelineOptions>(
      "accel-default-pipeline",
      "Import legalisation, canonicalisation and lowering to the ISA",
      [](OpPassManager &pm, const DefaultPipelineOptions &o) {
        ConvertGraphToIsaOptions lo;
        lo.depthwise = o.depthwise;
        lo.conv = o.conv;
        lo.sparseWeights = o.sparseWeights;
        lo.sparseThreshold = o.sparseThreshold;
        lo.loadBalance = o.loadBalance;
        lo.sfuMode = o.sfuMode;
        buildDefaultPipeline(pm, o.hw, lo);
      });
}
