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
#include "InteractionModule.h"
#include "PlanEmitter.h"
#include "accel/Import/OnnxImporter.h"
#include "accel/MultiNet/NetworkPlan.h"
#include "accel/Target/Link.h"
#include "accel/Target/LinkInteractions.h"
#include "accel/Target/Validate.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace accel {

namespace {

/// `links`: the tensors interactions read from this network (exposed as
/// outputs) and those their results replace (new inputs named after the
/// interaction).
OwningOpRef<ModuleOp> loadModel(MLIRContext &ctx,
                                const multinet::NetworkEntry &net,
                                const OnnxImportOptions &links,
                                std::string &err) {
  bool linked = !links.exposedTensors.empty() || !links.replacedTensors.empty();
  if (llvm::StringRef(net.model).ends_with(".onnx")) {
    OnnxImportOptions opts = links;
    for (const auto &[name, shape] : net.inputShapes)
      opts.inputShapes[name] = shape;
    return importOnnxFile(net.model, ctx, opts, err);
  }
  if (!net.inputShapes.empty() || linked) {
    err = std::string(linked ? "interactions name tensors of"
                             : "\"input_shapes\" apply to") +
          " .onnx models only";
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

/// One module (a network or an interaction) through accel-default-pipeline
/// for `machine`.
bool compileModule(MLIRContext &ctx, ModuleOp module,
                   const HardwareDesc &machine, const std::string &lowering,
                   const SplitPipelineOptions &split, Program &out,
                   std::string &err) {
  std::string diag;
  ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
    diag += d.str() + "\n";
    return success();
  });
  if (failed(attachHardware(module, hardwareAttrFor(&ctx, machine)))) {
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
  if (!compileToProgram(module, /*hwPath=*/"", split, out, err,
                        std::move(*pass)))
    return false;
  if (!validateProgram(out, machine, err)) {
    err = "internal error: the program for its clusters is invalid: " + err;
    return false;
  }
  return true;
}

/// What the plan's interactions read from network `net` (exposed tensors)
/// and feed into it (tensors replaced by an input named after the
/// interaction).
OnnxImportOptions linksOf(const multinet::NetworkPlanFile &plan,
                          const std::string &net) {
  OnnxImportOptions o;
  for (const multinet::InteractionEntry &x : plan.interactions) {
    for (const multinet::TensorRef &r : x.inputs)
      if (r.network == net && !llvm::is_contained(o.exposedTensors, r.tensor))
        o.exposedTensors.push_back(r.tensor);
    for (const multinet::TensorRef &r : x.consumers)
      if (r.network == net)
        o.replacedTensors[r.tensor] = x.name;
  }
  return o;
}

const Symbol *findSymbol(const Program &p, const std::string &name,
                         bool input) {
  for (const Symbol &s : p.symbols)
    if (s.name == name && s.isInput == input)
      return &s;
  return nullptr;
}

std::string shapeStr(const std::vector<int64_t> &s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

/// The row-major clusters of a rectangle of the full grid.
std::vector<uint32_t> clustersOf(const ClusterRect &r, uint32_t gridCols) {
  std::vector<uint32_t> out;
  for (uint32_t y = r.row0; y < r.row0 + r.rows; ++y)
    for (uint32_t x = r.col0; x < r.col0 + r.cols; ++x)
      out.push_back(y * gridCols + x);
  return out;
}

class NetworksCompiler {
public:
  NetworksCompiler(MLIRContext &ctx, const multinet::NetworkPlanFile &plan,
                   const HardwareDesc &full, const std::string &lowering,
                   const SplitPipelineOptions &split)
      : ctx(ctx), plan(plan), full(full), lowering(lowering), split(split) {}

  /// Network i on `rect`, as part i of `parts` (its DRAM slice).
  bool network(size_t i, const ClusterRect &rect, size_t parts, LinkPart &out,
               std::string &err) {
    const multinet::NetworkEntry &net = plan.networks[i];
    out.name = net.name;
    out.rect = rect;
    HardwareDesc machine;
    std::string why;
    OwningOpRef<ModuleOp> m;
    if (!subMachine(full, rect, uint32_t(parts), machine, out.channels, why) ||
        !(m = loadModel(ctx, net, linksOf(plan, net.name), why)) ||
        !compileModule(ctx, *m, machine, lowering, split, out.program, why)) {
      err = "network " + net.name + " (" + net.model + "): " + why;
      return false;
    }
    return true;
  }

  /// Interaction k on `rect`, after the networks (`nets`).
  bool interaction(size_t k, const ClusterRect &rect,
                   const std::vector<LinkPart> &nets, size_t parts,
                   LinkPart &out, std::string &err) {
    const multinet::InteractionEntry &x = plan.interactions[k];
    out.name = x.name;
    out.rect = rect;
    std::vector<std::vector<int64_t>> shapes;
    for (const multinet::TensorRef &r : x.inputs) {
      const Symbol *t = findSymbol(program(nets, r.network), r.tensor, false);
      if (!t) {
        err = "interaction " + x.name + ": network " + r.network +
              " does not return tensor '" + r.tensor + "'";
        return false;
      }
      shapes.push_back(t->shape);
    }
    HardwareDesc machine;
    std::string why;
    OwningOpRef<ModuleOp> m;
    if (!(m = interactionModule(ctx, x, shapes, why)) ||
        !subMachine(full, out.rect, uint32_t(parts), machine, out.channels,
                    why) ||
        !compileModule(ctx, *m, machine, lowering, split, out.program, why) ||
        !consumersFit(x, nets, out.program, why)) {
      err = "interaction " + x.name + ": " + why;
      return false;
    }
    return true;
  }

  /// How the linked program connects interaction k (on `cluster`).
  InteractionWiring wiring(size_t k, uint32_t cluster,
                           const std::vector<LinkPart> &nets) const {
    const multinet::InteractionEntry &x = plan.interactions[k];
    InteractionWiring w;
    w.name = x.name;
    w.cluster = cluster;
    for (size_t i = 0; i < x.inputs.size(); ++i) {
      w.producers.push_back({x.inputs[i].str(), clusters(nets, x.inputs[i])});
      w.inputs.push_back(x.name + ".in" + std::to_string(i));
    }
    w.result = x.name + ".result";
    for (const multinet::TensorRef &r : x.consumers)
      w.consumers.push_back({r.network + "." + x.name, clusters(nets, r)});
    return w;
  }

private:
  const Program &program(const std::vector<LinkPart> &nets,
                         const std::string &name) const {
    for (const LinkPart &p : nets)
      if (p.name == name)
        return p.program;
    llvm_unreachable("the plan reader checked the network names");
  }

  std::vector<uint32_t> clusters(const std::vector<LinkPart> &nets,
                                 const multinet::TensorRef &r) const {
    for (const LinkPart &p : nets)
      if (p.name == r.network)
        return clustersOf(p.rect, full.cols);
    return {};
  }

  /// The result has the shape of every tensor it replaces.
  bool consumersFit(const multinet::InteractionEntry &x,
                    const std::vector<LinkPart> &nets, const Program &own,
                    std::string &why) const {
    const Symbol *result = findSymbol(own, "result", false);
    for (const multinet::TensorRef &r : x.consumers) {
      const Symbol *in = findSymbol(program(nets, r.network), x.name, true);
      if (in && result && in->shape == result->shape)
        continue;
      why = "its result has shape " +
            (result ? shapeStr(result->shape) : std::string("?")) + "; " +
            r.str() + ", which it replaces, has " +
            (in ? shapeStr(in->shape) : std::string("no reader"));
      return false;
    }
    return true;
  }

  MLIRContext &ctx;
  const multinet::NetworkPlanFile &plan;
  const HardwareDesc &full;
  const std::string &lowering;
  const SplitPipelineOptions &split;
};

} // namespace

namespace {

/// The plan read and checked, and every network and interaction compiled
/// (`parts`: networks in plan order, then interactions) with the wiring of
/// each interaction.
struct CompiledPlan {
  multinet::NetworkPlanFile plan;
  std::vector<LinkPart> parts;
  std::vector<InteractionWiring> wirings;
};

bool readPlan(const std::string &planPath, const HardwareDesc &full,
              bool baseline, multinet::NetworkPlanFile &plan,
              std::vector<std::vector<uint32_t>> &rects,
              std::vector<uint32_t> &xClusters, std::string &err) {
  bool ok =
      multinet::readNetworkPlan(planPath, plan, err) &&
      multinet::planRectangles(plan, full.rows, full.cols, rects, err) &&
      (baseline || multinet::interactionClusters(plan, full.rows, full.cols,
                                                 rects, xClusters, err));
  for (const multinet::InteractionEntry &x : plan.interactions)
    if (ok && baseline && !x.consumers.empty()) {
      err = "--baseline runs the networks one after the other, then the "
            "interactions: no network can read interaction " +
            x.name + "'s result";
      ok = false;
    }
  if (!ok && err.rfind(planPath, 0) != 0)
    err = planPath + ": " + err;
  return ok;
}

bool compileParts(MLIRContext &ctx, const std::string &planPath,
                  const HardwareDesc &full, bool baseline,
                  const std::string &lowering,
                  const SplitPipelineOptions &split, CompiledPlan &out,
                  std::string &err) {
  std::vector<std::vector<uint32_t>> rects;
  std::vector<uint32_t> xClusters;
  const multinet::NetworkPlanFile &plan = out.plan;
  if (!readPlan(planPath, full, baseline, out.plan, rects, xClusters, err))
    return false;
  NetworksCompiler compiler(ctx, plan, full, lowering, split);
  size_t nets = plan.networks.size(), total = nets + plan.interactions.size();
  out.parts.resize(nets);
  for (size_t i = 0; i < nets; ++i) {
    ClusterRect rect = baseline ? ClusterRect{0, 0, full.rows, full.cols}
                                : ClusterRect{rects[i][0], rects[i][1],
                                              rects[i][2], rects[i][3]};
    if (!compiler.network(i, rect, total, out.parts[i], err))
      return false;
  }
  for (size_t k = 0; k < plan.interactions.size(); ++k) {
    LinkPart x;
    // The baseline runs an interaction, like a network, on the whole grid.
    ClusterRect rect = baseline ? ClusterRect{0, 0, full.rows, full.cols}
                                : ClusterRect{xClusters[k] / full.cols,
                                              xClusters[k] % full.cols, 1, 1};
    if (!compiler.interaction(k, rect, out.parts, total, x, err))
      return false;
    out.wirings.push_back(
        compiler.wiring(k, baseline ? 0 : xClusters[k], out.parts));
    out.parts.push_back(std::move(x));
  }
  return true;
}

} // namespace

bool compileNetworks(MLIRContext &ctx, const std::string &planPath,
                     const HardwareDesc &full, bool baseline,
                     const std::string &lowering,
                     const SplitPipelineOptions &split, Program &out,
                     std::string &err) {
  CompiledPlan c;
  if (!compileParts(ctx, planPath, full, baseline, lowering, split, c, err))
    return false;
  std::vector<std::vector<size_t>> starts;
  if (!linkPrograms(c.parts, full,
                    baseline ? LinkMode::Sequential : LinkMode::Parallel, out,
                    err, &starts) ||
      !(baseline ? wireSequentialInteractions(out, c.wirings, starts, err)
                 : wireInteractions(out, c.wirings, err)))
    return false;
  if (!c.wirings.empty() && !validateProgram(out, full, err)) {
    err = "the networks and their interactions cannot run together: " + err;
    return false;
  }
  return true;
}

OwningOpRef<ModuleOp>
compileNetworksPlan(MLIRContext &ctx, const std::string &planPath,
                    const HardwareDesc &full, const std::string &lowering,
                    const SplitPipelineOptions &split,
                    ProcessGranularity granularity, std::string &err) {
  CompiledPlan c;
  if (!compileParts(ctx, planPath, full, /*baseline=*/false, lowering, split, c,
                    err))
    return nullptr;
  return emitPlan(ctx, c.plan, c.parts, full, granularity);
}

} // namespace accel
