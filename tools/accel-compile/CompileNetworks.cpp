//===- CompileNetworks.cpp - accel-compile --networks ---------------------===//
//
// Each network of the plan is imported and compiled alone, for the
// sub-machine of its clusters (accel::subMachine: its rectangle of the grid,
// its slice of every memory channel), then the programs are linked
// (accel::linkPrograms). Baseline: every network on the whole grid, one
// after the other (the spec's conventional accelerator).
//
//===----------------------------------------------------------------------===//
#include "CompileNetworks.h"
#include "Accel/AccelDialect.h"
#include "accel/Import/OnnxImporter.h"
#include "accel/MultiNet/NetworkPlan.h"
#include "accel/Target/Link.h"
#include "accel/Target/Validate.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace accel {

namespace {

OwningOpRef<ModuleOp> loadModel(MLIRContext &ctx,
                                const multinet::NetworkEntry &net,
                                std::string &err) {
  if (llvm::StringRef(net.model).ends_with(".onnx")) {
    OnnxImportOptions opts;
    for (const auto &[name, shape] : net.inputShapes)
      opts.inputShapes[name] = shape;
    return importOnnxFile(net.model, ctx, opts, err);
  }
  if (!net.inputShapes.empty()) {
    err = "\"input_shapes\" apply to .onnx models only";
    return nullptr;
  }
  llvm::SourceMgr sm;
  std::string diag;
  ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
    diag += d.str();
    return success();
  });
  auto m = parseSourceFile<ModuleOp>(net.model, sm, &ctx);
  if (!m)
    err = "cannot parse: " + diag;
  return m;
}

/// One network through accel-default-pipeline for `machine`.
bool compileOne(MLIRContext &ctx, const multinet::NetworkEntry &net,
                const HardwareDesc &machine, const std::string &lowering,
                const SplitPipelineOptions &split, Program &out,
                std::string &err) {
  OwningOpRef<ModuleOp> module = loadModel(ctx, net, err);
  if (!module)
    return false;
  std::string diag;
  ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
    diag += d.str() + "\n";
    return success();
  });
  if (failed(attachHardware(*module, hardwareAttrFor(&ctx, machine)))) {
    err = diag;
    return false;
  }
  auto pass =
      createConvertGraphToIsaFromString(lowering, [&](const llvm::Twine &m) {
        diag += m.str();
        return failure();
      });
  if (failed(pass)) {
    err = "invalid lowering option: " + diag;
    return false;
  }
  if (!compileToProgram(*module, /*hwPath=*/"", split, out, err,
                        std::move(*pass)))
    return false;
  if (!validateProgram(out, machine, err)) {
    err = "internal error: the program for its clusters is invalid: " + err;
    return false;
  }
  return true;
}

} // namespace

bool compileNetworks(MLIRContext &ctx, const std::string &planPath,
                     const HardwareDesc &full, bool baseline,
                     const std::string &lowering,
                     const SplitPipelineOptions &split, Program &out,
                     std::string &err) {
  multinet::NetworkPlanFile plan;
  std::vector<std::vector<uint32_t>> rects;
  if (!multinet::readNetworkPlan(planPath, plan, err) ||
      !multinet::planRectangles(plan, full.rows, full.cols, rects, err)) {
    if (err.rfind(planPath, 0) != 0)
      err = planPath + ": " + err;
    return false;
  }
  std::vector<LinkPart> parts(plan.networks.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const multinet::NetworkEntry &net = plan.networks[i];
    LinkPart &part = parts[i];
    part.name = net.name;
    part.rect = baseline ? ClusterRect{0, 0, full.rows, full.cols}
                         : ClusterRect{rects[i][0], rects[i][1], rects[i][2],
                                       rects[i][3]};
    HardwareDesc machine;
    std::string why;
    if (!subMachine(full, part.rect, uint32_t(parts.size()), machine,
                    part.channels, why) ||
        !compileOne(ctx, net, machine, lowering, split, part.program, why)) {
      err = "network " + net.name + " (" + net.model + "): " + why;
      return false;
    }
  }
  return linkPrograms(parts, full,
                      baseline ? LinkMode::Sequential : LinkMode::Parallel, out,
                      err);
}

} // namespace accel
