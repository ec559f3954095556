//===- accel-split-bench.cpp - Strong scaling: 1 core vs 16 cores ---------===//
//
// For the convolution and fully-connected / matmul layers of ResNet-50, an
// MLP and a BERT-base encoder layer (Layers.cpp): every layer compiled alone
// with the default pipeline (as accel-compile does) for the full machine
// (default: 2 x 2 clusters x 4 PEs, 2 channels = 16 cores) and for one core
// of it (grid 1 x 1, 1 PE, cluster 0's local channel; DESIGN "Strong-scaling
// benchmark definitions", docs/split-bench.md), both simulated with strict
// hazards; the outputs must agree. Prints per layer the cycles, speed-up,
// parallel efficiency, whether the layer is compute-bound on 16 cores, and
// the DRAM traffic per channel of the 16-core run. Not a test: figures for
// docs/split-bench.md.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "Layers.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Support/TerminalProgress.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>

/// --split: who decides the cluster partition (default: the database).
static accel::SplitPipelineOptions splitOptions;
static std::vector<std::string> splitPairs;

using namespace mlir;
using namespace accel;
using splitbench::Layer;

namespace {

const char *kUsage =
    R"(usage: accel-split-bench [--quick] [--hw FILE] [--filter TEXT] [--trace DIR] [--clusters]
                         [--mapping "dataflow = D, array = [R, C]"]
                         [--split=partition|labels|off] [--parallel=...]
                         [--rounding=...] [--policy=...] [--balance-clusters=...]

Strong scaling: every convolution / fully-connected / matmul layer of
ResNet-50 (batch 1), an MLP (1024-4096-4096-1000, batch 16) and a BERT-base
encoder layer (sequence 128) compiled alone with the default pipeline for
the whole machine (--hw, default hw/default.json: 16 cores) and for one core
of it (grid 1 x 1, 1 PE, cluster 0's channel), simulated with strict
hazards; the two outputs must agree. --quick: three layers. --filter: only
layers whose name contains TEXT. --trace DIR: Chrome traces of both runs
per layer. --mapping: force this #accel.mapping on every layer (experiments).
--split: who decides the cluster partition (accel-compile --split; default
partition: the strategy database, labels: select-mapping's cost model);
--parallel / --rounding / --policy / --balance-clusters: split-strategy's
options (default parallel=best: per layer the database mode the cost model
prices cheapest; balance-clusters=true: its pieces re-cut with the cluster
shares balanced where the op prices compute-bound and that is cheaper).
--clusters: the 16-core run's mapping / tiling decisions and per-cluster
finish / PE-busy cycles.
)";

/// The one-core machine of a description: same cluster, PE and channel
/// parameters, grid 1 x 1, one PE, one channel (cluster 0's).
HardwareDesc oneCore(const HardwareDesc &full) {
  HardwareDesc h = full;
  h.name = full.name + "-1core";
  h.rows = h.cols = 1;
  h.pesPerCluster = 1;
  MemoryChannel ch = full.channels[full.channelOf(0)];
  ch.routerCluster = -1;
  h.channels = {ch};
  return h;
}

std::vector<float> randomData(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

size_t elements(const std::vector<int64_t> &shape) {
  size_t n = 1;
  for (int64_t d : shape)
    n *= size_t(d);
  return n;
}

struct Run {
  SimStats stats;
  std::map<std::string, Tensor> outputs;
};

/// Parses the layer's module and turns its weight arguments into
/// arith.constant ops holding `data`.
OwningOpRef<ModuleOp> buildModule(MLIRContext &ctx, const Layer &l,
                                  const std::map<std::string, Tensor> &data,
                                  std::string &err) {
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(l.moduleText(), &ctx);
  if (!m) {
    err = "the layer module does not parse";
    return nullptr;
  }
  func::FuncOp f = *m->getOps<func::FuncOp>().begin();
  OpBuilder b(f.getBody());
  for (int i = int(l.operands.size()) - 1; i >= 0; --i) {
    const splitbench::Operand &o = l.operands[size_t(i)];
    if (!o.constant)
      continue;
    BlockArgument arg = f.getArgument(unsigned(i));
    auto ty = cast<RankedTensorType>(arg.getType());
    Value c = arith::ConstantOp::create(
        b, f.getLoc(),
        DenseElementsAttr::get(ty, ArrayRef<float>(data.at(o.name).data)));
    arg.replaceAllUsesWith(c);
    if (failed(f.eraseArgument(unsigned(i)))) {
      err = "cannot turn argument " + o.name + " into a constant";
      return nullptr;
    }
  }
  return m;
}

/// The layer's accel.mapping / accel.tiling after the default pipeline's
/// decisions (the pipeline with the lowering replaced by a canonicaliser).
std::string decisions(MLIRContext &ctx, const Layer &l,
                      const std::string &hwPath,
                      const std::map<std::string, Tensor> &data) {
  std::string err;
  OwningOpRef<ModuleOp> m = buildModule(ctx, l, data, err);
  if (!m)
    return err;
  PassManager pm(&ctx);
  buildDefaultPipeline(pm, hwPath, createCanonicalizerPass(), splitOptions);
  if (failed(pm.run(*m)))
    return "the pipeline failed";
  std::string out;
  llvm::raw_string_ostream os(out);
  m->walk([&](Operation *op) {
    for (const char *name : {"accel.mapping", "accel.tiling"})
      if (Attribute a = op->getAttr(name))
        os << "    " << name << " = " << a << "\n";
  });
  return out;
}

/// Compiles the layer with the default pipeline for the machine in
/// `hwPath` and simulates it with strict hazards.
bool compileAndRun(MLIRContext &ctx, const Layer &l, const std::string &hwPath,
                   const HardwareDesc &hw,
                   const std::map<std::string, Tensor> &data,
                   const std::string &trace, Run &run, std::string &err) {
  OwningOpRef<ModuleOp> m = buildModule(ctx, l, data, err);
  if (!m)
    return false;
  Program prog;
  if (!compileToProgram(*m, hwPath, splitOptions, prog, err))
    return false;
  std::map<std::string, Tensor> inputs;
  for (const splitbench::Operand &o : l.operands)
    if (!o.constant)
      inputs[o.name] = data.at(o.name);
  SimOptions opts;
  opts.hazardsAreErrors = true;
  opts.tracePath = trace;
  if (!simulate(prog, hw, inputs, opts, run.outputs, run.stats, err)) {
    err = "simulation failed: " + err;
    return false;
  }
  return true;
}

/// max |a - b| <= 1e-4 * max |b| (+ a tiny absolute floor): the two runs
/// add the same products in different orders (K-split partial sums).
bool outputsAgree(const Tensor &a, const Tensor &b, double &maxDiff) {
  if (a.shape != b.shape || a.data.size() != b.data.size())
    return false;
  double scale = 0;
  maxDiff = 0;
  for (size_t i = 0; i < a.data.size(); ++i) {
    scale = std::max(scale, double(std::fabs(b.data[i])));
    double d = std::fabs(double(a.data[i]) - double(b.data[i]));
    if (!(d <= maxDiff)) // NaN-safe
      maxDiff = std::isnan(d) ? INFINITY : d;
  }
  return maxDiff <= 1e-4 * scale + 1e-6;
}

double imbalance(const std::vector<double> &bytes) {
  if (bytes.empty())
    return 0;
  double mx = 0, sum = 0;
  for (double b : bytes)
    mx = std::max(mx, b), sum += b;
  double mean = sum / double(bytes.size());
  return mean > 0 ? (mx - mean) / mean : 0;
}

std::string human(double v) {
  char buf[32];
  const char *units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  while (std::fabs(v) >= 1000 && u < 4)
    v /= 1000, ++u;
  std::snprintf(buf, sizeof buf, u ? "%.1f%s" : "%.0f%s", v, units[u]);
  return buf;
}

bool writeHw(const HardwareDesc &hw, const std::string &path) {
  std::ofstream os(path);
  os << hardwareToJson(hw);
  return bool(os);
}

} // namespace

int main(int argc, char **argv) {
  std::string hwPath, filter, traceDir, forced;
  bool quick = false, clusters = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "accel-split-bench: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--hw")
      hwPath = value();
    else if (a == "--filter")
      filter = value();
    else if (a == "--trace")
      traceDir = value();
    else if (a == "--mapping")
      forced = value();
    else if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos &&
             accel::isSplitOptionName(a.substr(2, a.find('=') - 2))) {
      splitPairs.push_back(a.substr(2));
      std::vector<std::string> pairs = splitPairs;
      if (failed(accel::parseSplitOptions(
              pairs, splitOptions, [&](const llvm::Twine &msg) {
                std::cerr << "accel-split-bench: " << msg.str() << "\n";
                return mlir::failure();
              })))
        return 2;
    } else if (a == "--quick")
      quick = true;
    else if (a == "--clusters")
      clusters = true;
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "accel-split-bench: unknown argument '" << a << "'\n"
                << kUsage;
      return 2;
    }
  }
  HardwareDesc full = defaultHardware();
  if (!hwPath.empty()) {
    std::string err;
    if (!loadHardwareDesc(hwPath, full, err)) {
      std::cerr << "accel-split-bench: " << err << "\n";
      return 1;
    }
  }
  HardwareDesc one = oneCore(full);
  {
    std::string err;
    if (!validateHardwareDesc(one, err)) {
      std::cerr << "accel-split-bench: the one-core machine is invalid: " << err
                << "\n";
      return 1;
    }
  }
  // The pipeline reads the machine from a file (accel-attach-hardware).
  SmallString<128> tmpDir;
  if (llvm::sys::fs::createUniqueDirectory("accel-split-bench", tmpDir)) {
    std::cerr << "accel-split-bench: cannot create a temporary directory\n";
    return 1;
  }
  const std::string fullPath = (tmpDir + "/full.json").str(),
                    onePath = (tmpDir + "/one.json").str();
  if (!writeHw(full, fullPath) || !writeHw(one, onePath)) {
    std::cerr << "accel-split-bench: cannot write " << tmpDir.str().str()
              << "\n";
    return 1;
  }
  if (!traceDir.empty())
    llvm::sys::fs::create_directories(traceDir);

  DialectRegistry registry;
  registry.insert<graph::GraphDialect, isa::IsaDialect, func::FuncDialect,
                  arith::ArithDialect>();
  accel::registerAccelDialect(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);

  const uint32_t cores = full.numClusters() * full.pesPerCluster;
  double totalBw = 0;
  for (const MemoryChannel &c : full.channels)
    totalBw += c.bytesPerCycle;
  std::printf("hardware %s: %u x %u clusters x %u PEs = %u cores, %u lanes, "
              "%zu channels (%.0f B/cycle); 1 core = %s\n",
              full.name.c_str(), full.rows, full.cols, full.pesPerCluster,
              cores, full.macLanes, full.channels.size(), totalBw,
              one.name.c_str());
  std::printf("compute-bound: MACs / (%u cores x %u lanes) >= compulsory "
              "bytes / %.0f B/cycle\n\n",
              cores, full.macLanes, totalBw);
  std::printf("%-10s %-24s %8s %11s %10s %7s %6s %3s %9s %8s %-17s %6s %8s "
              "%8s\n",
              "net", "layer", "MACs", "cyc 1 core", "cyc 16", "speedup", "eff%",
              "CB", "DRAM B", "mesh B", "per-channel B", "imb%", "local B",
              "remote B");

  std::vector<double> channelTotals(full.channels.size(), 0);
  double totalLocal = 0, totalRemote = 0;
  double minCb = INFINITY;
  std::string minCbLayer;
  int failures = 0, layersRun = 0;
  std::mt19937 rng(11);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Layer> layers = splitbench::benchmarkLayers(quick);
  TerminalProgress progress("layers", layers.size());
  for (size_t index = 0; index < layers.size(); ++index) {
    Layer &l = layers[index];
    if (!forced.empty())
      l.forceMapping(forced);
    if (!filter.empty() &&
        (l.net + "." + l.name).find(filter) == std::string::npos)
      continue;
    progress.step(index, l.net + "." + l.name);
    std::map<std::string, Tensor> data;
    for (const splitbench::Operand &o : l.operands)
      data[o.name] = {o.shape, randomData(elements(o.shape), rng)};
    Run r16, r1;
    std::string err;
    std::string tr16, tr1;
    if (!traceDir.empty()) {
      tr16 = traceDir + "/" + l.net + "." + l.name + ".16.json";
      tr1 = traceDir + "/" + l.net + "." + l.name + ".1.json";
    }
    bool ran = compileAndRun(ctx, l, fullPath, full, data, tr16, r16, err) &&
               compileAndRun(ctx, l, onePath, one, data, tr1, r1, err);
    progress.clear();
    if (!ran) {
      std::printf("%-10s %-24s FAILED: %s\n", l.net.c_str(), l.name.c_str(),
                  err.c_str());
      ++failures;
      continue;
    }
    double diff = 0;
    if (!outputsAgree(r16.outputs.at("y"), r1.outputs.at("y"), diff)) {
      std::printf("%-10s %-24s FAILED: outputs differ (max |diff| %g)\n",
                  l.net.c_str(), l.name.c_str(), diff);
      ++failures;
      continue;
    }
    ++layersRun;
    const SimStats &s = r16.stats;
    double speedup = double(r1.stats.cycles) / double(s.cycles);
    bool cb =
        l.macs / double(cores * full.macLanes) >= l.compulsoryBytes() / totalBw;
    if (cb && speedup < minCb)
      minCb = speedup, minCbLayer = l.net + "." + l.name;
    totalLocal += double(s.dramLocalBytes);
    totalRemote += double(s.dramRemoteBytes);
    std::vector<double> ch;
    std::string chText;
    for (size_t c = 0; c < s.channels.size(); ++c) {
      ch.push_back(double(s.channels[c].bytes));
      channelTotals[c] += double(s.channels[c].bytes);
      chText += (c ? "/" : "") + human(double(s.channels[c].bytes));
    }
    std::printf("%-10s %-24s %8s %11llu %10llu %6.2fx %6.1f %3s %9s %8s "
                "%-17s %6.1f %8s %8s\n",
                l.net.c_str(), l.name.c_str(), human(l.macs).c_str(),
                (unsigned long long)r1.stats.cycles,
                (unsigned long long)s.cycles, speedup,
                100.0 * speedup / double(cores), cb ? "yes" : "no",
                human(double(s.dramBytesRead + s.dramBytesWritten)).c_str(),
                human(double(s.mesh.bytes)).c_str(), chText.c_str(),
                100.0 * imbalance(ch), human(double(s.dramLocalBytes)).c_str(),
                human(double(s.dramRemoteBytes)).c_str());
    if (clusters)
      std::printf("%s", decisions(ctx, l, fullPath, data).c_str());
    if (clusters)
      for (const ClusterStats &c : s.clusters)
        std::printf("    cluster (%u,%u): finish %llu, PE busy %llu, MACs %s, "
                    "DMA %s B (remote %s), stall %llu\n",
                    c.row, c.col, (unsigned long long)c.finishCycle,
                    (unsigned long long)c.peBusyCycles,
                    human(double(c.macs)).c_str(),
                    human(double(c.dmaBytes)).c_str(),
                    human(double(c.dramRemoteBytes)).c_str(),
                    (unsigned long long)c.stallCycles);
    std::fflush(stdout);
  }
  llvm::sys::fs::remove_directories(tmpDir);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  std::printf("\n%d layers, %d failed, %.0f s; slowest compute-bound layer: "
              "%s\n",
              layersRun, failures, secs,
              minCbLayer.empty() ? "(none)" : minCbLayer.c_str());
  std::string chTotals;
  for (size_t c = 0; c < channelTotals.size(); ++c)
    chTotals += (c ? " / " : "") + human(channelTotals[c]);
  std::printf("16-core DRAM bytes per channel %s; local %s, remote %s "
              "(%.1f %% remote)\n",
              chTotals.c_str(), human(totalLocal).c_str(),
              human(totalRemote).c_str(),
              totalLocal + totalRemote > 0
                  ? 100.0 * totalRemote / (totalLocal + totalRemote)
                  : 0.0);
  std::printf("split: 16 cores %.2fx over 1 core (min over compute-bound "
              "layers), channel imbalance %.1f %%\n",
              std::isinf(minCb) ? 0.0 : minCb,
              100.0 * imbalance(channelTotals));
  return failures ? 1 : 0;
}
