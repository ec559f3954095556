//===- PassOptionRangesTest.cpp - Options set in C++ are checked too ------===//
//
// A textual pipeline's options are checked as they are parsed
// (test/Transforms/option-ranges.mlir). Options set through a pass's
// options struct, as the default pipeline sets them, never pass through
// that parser: the passes check them again when they run
// (lib/Transforms/OptionChecks.h).
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace {
/// Runs `pass` on an empty module; returns the errors it reported ("" when
/// it succeeded).
std::string errorsOf(std::unique_ptr<mlir::Pass> pass) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<accel::graph::GraphDialect>();
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    errors += d.str() + "\n";
    return mlir::success();
  });
  mlir::OpBuilder b(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(b.getUnknownLoc());
  mlir::PassManager pm(&ctx);
  pm.addPass(std::move(pass));
  if (mlir::succeeded(pm.run(*module)))
    EXPECT_EQ(errors, "");
  else
    EXPECT_NE(errors, "");
  return errors;
}
} // namespace

TEST(PassOptionRanges, DepthFirstChannelsChecksItsStruct) {
  accel::DepthFirstChannelsOptions o;
  o.slices = -1;
  o.sliceFraction = 0;
  EXPECT_EQ(errorsOf(accel::createDepthFirstChannels(o)),
            "depth-first-channels: slice-fraction = 0 must be a finite number "
            "> 0\ndepth-first-channels: slices = -1 must be at least 0\n");
}

TEST(PassOptionRanges, DepthFirstRowsChecksItsStruct) {
  accel::DepthFirstRowsOptions o;
  o.maxSlices = 0;
  o.minDramToMacRatio = -1;
  EXPECT_EQ(errorsOf(accel::createDepthFirstRows(o)),
            "depth-first-rows: min-dram-to-mac-ratio = -1 must be a finite "
            "number >= 0\ndepth-first-rows: max-slices = 0 must be at least "
            "1\n");
}

TEST(PassOptionRanges, SelectTilingAndSplitStrategyCheckTheirStructs) {
  accel::SelectTilingOptions t;
  t.partitionN = -5;
  EXPECT_EQ(errorsOf(accel::createSelectTiling(t)),
            "select-tiling: partition-n = -5 must be at least 0\n");
  accel::SplitStrategyOptions s;
  s.bytesTolerance = std::numeric_limits<double>::infinity();
  EXPECT_EQ(errorsOf(accel::createSplitStrategy(s)),
            "split-strategy: bytes-tolerance = inf must be a finite number "
            ">= 0\n");
}

TEST(PassOptionRanges, TheDefaultsPass) {
  // An empty module without a hardware attribute: the passes take the
  // default machine and find nothing to do.
  EXPECT_EQ(errorsOf(accel::createDepthFirstChannels()), "");
  EXPECT_EQ(errorsOf(accel::createDepthFirstRows()), "");
  EXPECT_EQ(errorsOf(accel::createSelectTiling()), "");
}
