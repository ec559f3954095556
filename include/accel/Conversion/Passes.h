//===- Passes.h - Conversion passes -----------------------------*- C++ -*-===//
#ifndef ACCEL_CONVERSION_PASSES_H
#define ACCEL_CONVERSION_PASSES_H

#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace accel {
struct Program;

/// Values of the enum-like options of convert-graph-to-isa (Passes.td lists
/// their spellings with llvm::cl::values).
enum class DepthwiseKernel { Sw, Gemm };
enum class DepthwiseLaneRows { Off, Auto, On };
enum class ConvKernel { Gemm, Rq };
enum class PoolKernel { Window, Taps };
enum class SparseWeightsMode { Off, Auto };
enum class SfuMode { Chained, Decoupled };
enum class LayerSync { Barrier, Events };
enum class DramPlacement { Linear, Channels, Pieces };
enum class ConvPadding { Window, Copy, Auto };
enum class Residency { Off, On, All };
enum class ConvBands { Off, Auto, On };

#define GEN_PASS_DECL
#include "accel/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "accel/Conversion/Passes.h.inc"

/// Who decides the cluster partition of GEMM-shaped ops
/// (docs/labels-and-splits.md, "Split strategy and mapping: one decision").
enum class SplitMode {
  Partition, ///< the strategy database (split-strategy) decides it
  Labels,    ///< select-mapping's cost model; the labels lose their split
  Off,       ///< select-mapping's cost model; no labels at all
};

/// The default pipeline's split options: the mode and split-strategy's
/// forwarded options ("parallel=... rounding=... policy=...", checked by
/// that pass's own parser). Without a `parallel` item the default pipeline
/// runs split-strategy with parallel=best.
struct SplitPipelineOptions {
  SplitMode mode = SplitMode::Partition;
  std::string strategy;
  /// `fuse=on|off`: whether fuse-layers runs (after fold-batch-norm).
  bool fuse = true;
  /// `upsampled-merge=on|off`: whether fold-upsampled-merge runs (after
  /// fold-batch-norm, before fuse-layers).
  bool upsampledMerge = true;
  /// `depth-first=on|off`: whether depth-first-channels runs (after
  /// fuse-layers).
  bool depthFirst = true;
  /// `depth-first-halos=on|off`: depth-first-rows' `halos` (chains of
  /// layers that read rows around their band; docs/passes.md).
  bool depthFirstHalos = false;
  /// `rnn=engine|plain`: recurrent layers as RECUR tasks on the column-wise
  /// engine (select-rnn-parallelism, schedule-rnn-threads; docs/rnn.md) or
  /// the plain per-step GEMM + SFU lowering.
  bool rnnEngine = true;
  /// `rnn-contexts=N`: thread contexts per cluster schedule-rnn-threads
  /// uses (0: the hardware's instruction buffers; 1: no multithreading).
  int64_t rnnContexts = 0;
  /// `rnn-clusters=N`: clusters schedule-rnn-threads places tasks on (the
  /// first N; 0: all).
  int64_t rnnClusters = 0;
};

/// One value of a default-pipeline option, with what it means (empty: the
/// option's help says it).
struct PipelineOptionValue {
  llvm::StringRef value, help;
};

/// One of the default pipeline's own options (declared here, not in a
/// pass): `values` lists an enumeration (the first value of a two-valued
/// option sets `flag`); none means a count >= 0 (into `count`). An option
/// with neither field is `split` (SplitPipelineOptions::mode, its values in
/// SplitMode's order). The one table that parseSplitOptions,
/// accel-compile's help and the Python package's typed options
/// (accel.compile) read.
struct PipelineOption {
  llvm::StringRef name, help;
  llvm::ArrayRef<PipelineOptionValue> values;
  llvm::StringRef defaultValue;
  bool SplitPipelineOptions::*flag = nullptr;
  int64_t SplitPipelineOptions::*count = nullptr;
};
/// split, fuse, depth-first, depth-first-halos, rnn, rnn-contexts and
/// rnn-clusters.
llvm::ArrayRef<PipelineOption> pipelineOptions();

/// One of split-strategy's options the default pipeline forwards, and the
/// default the pipeline gives it (empty: the pass's own default). Their
/// values and help are the pass's (Passes.td).
struct ForwardedStrategyOption {
  llvm::StringRef name, pipelineDefault;
};
/// parallel (best), rounding (clusters), policy, balance-clusters (true).
llvm::ArrayRef<ForwardedStrategyOption> forwardedStrategyOptions();

/// accel-compile's help of those options: one "--name=<value>" entry per
/// pipelineOptions() item (its values on lines of their own when they have
/// help, else inline), then the forwarded names and their defaults here.
std::string pipelineOptionsHelp();

/// The option names of the default pipeline that configure the split:
/// pipelineOptions() and forwardedStrategyOptions().
bool isSplitOptionName(llvm::StringRef name);
/// Those names, in one list (compileOptionNames, the option table of
/// accel-compile and the Python package, takes them from here too).
llvm::ArrayRef<llvm::StringRef> splitOptionNames();

/// Reads the split options out of "name=value ..." pairs (names as
/// isSplitOptionName); errors (an unknown mode, a value split-strategy's
/// parser rejects) go to `errorHandler`.
mlir::LogicalResult parseSplitOptions(
    llvm::ArrayRef<std::string> pairs, SplitPipelineOptions &out,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler);

/// Adds the default pipeline (what accel-compile runs) to `pm`: with a
/// non-empty `hwPath` first accel-attach-hardware, then legalisation,
/// canonicalisation, fold-batch-norm, select-tiling, tensor-labeling and
/// split-strategy (as `split` says), select-mapping (then drop-label-splits
/// with SplitMode::Labels) and `lowering` (a convert-graph-to-isa pass;
/// null = default options).
void buildDefaultPipeline(mlir::OpPassManager &pm, const std::string &hwPath,
                          std::unique_ptr<mlir::Pass> lowering = nullptr,
                          const SplitPipelineOptions &split = {});

/// A convert-graph-to-isa pass configured by `options` ("name=value ...",
/// parsed by the pass's own option parser); errors go to `errorHandler`.
mlir::FailureOr<std::unique_ptr<mlir::Pass>> createConvertGraphToIsaFromString(
    llvm::StringRef options,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler);

/// Registers `accel-default-pipeline` (graph -> isa, what accel-compile
/// runs). Its options are the split options (isSplitOptionName) and those
/// of convert-graph-to-isa, forwarded.
void registerAccelPipelines();

/// accel-default-pipeline on `module` (graph dialect) for the machine in
/// `hwPath` (empty: the module's accel.hw), with `lowering` as its
/// convert-graph-to-isa when given, then its isa.program as `out`
/// (CompileToProgram.cpp). False with the pipeline's diagnostics in `err`
/// when it fails.
bool compileToProgram(mlir::ModuleOp module, const std::string &hwPath,
                      const SplitPipelineOptions &split, Program &out,
                      std::string &err,
                      std::unique_ptr<mlir::Pass> lowering = nullptr);

} // namespace accel

#endif
