//===- accel-rnn-bench.cpp - Coarse-grained multithreading of RNN tasks ---===//
//
// Several LSTM / GRU models (independent tasks, batch 1) compiled into one
// program with the default pipeline and simulated (docs/rnn.md, "Benchmark"):
//   (a) the spec's Fig. 1b / 1f scenario, three LSTMs of 2, 3 and 2 steps on
//       one cluster of the npe = 65536 preset, one thread context
//       (sequential) against three;
//   (b) 1..8 concurrent models, hidden 128..1024: throughput, MAC
//       utilisation, and a single task's cycles with and without thread
//       contexts;
//   (c) the EP sweep of the cost model for npe 16384 and 65536.
// The last line is the issue's contract: 4 LSTMs of hidden 256 on --hw
// (default hw/default.json), the default compile (all clusters, all thread
// contexts) against one model at a time on one cluster with one context.
// Not a test: figures for docs/rnn.md.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Rnn/Engine.h"
#include "accel/Rnn/Parallelism.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>

using namespace mlir;
using namespace accel;

namespace {

const char *kUsage = R"(usage: accel-rnn-bench [--quick] [--hw FILE]

Coarse-grained multithreading of RNN tasks (docs/rnn.md): LSTM / GRU models
compiled into one program with the default pipeline and simulated. Prints
(a) the spec's Fig. 1b/1f scenario (three LSTMs of 2, 3, 2 steps) on
hw/rnn-npe64k.json, sequential vs multithreaded; (b) 1..8 concurrent models
of hidden 128..1024 on --hw (default hw/default.json) and on
hw/rnn-npe64k.json; (c) the cost model's EP sweep for npe 16384 and 65536.
The last line: 4 LSTMs of hidden 256, batch 1, on --hw.
  --quick   fewer sizes and models (the figure check's run)
)";

struct Model {
  bool gru = false;
  int64_t hidden = 256, inputs = 256, steps = 16;
};

/// Compile-time configuration of one run.
struct Config {
  std::string hwPath;
  int64_t clusters = 0, contexts = 0; ///< rnn-clusters / rnn-contexts
  bool engine = true;                 ///< rnn=engine (false: plain)
};

struct Result {
  SimStats stats;
  std::map<std::string, Tensor> outputs;
};

std::string tensorType(std::initializer_list<int64_t> dims) {
  std::string s = "tensor<";
  for (int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

/// One function: model i reads x<i> [steps, 1, inputs] and its weights
/// (arguments turned into constants below), returns its final h.
std::string moduleText(const std::vector<Model> &models) {
  std::ostringstream args, body, rets, retTypes;
  for (size_t i = 0; i < models.size(); ++i) {
    const Model &m = models[i];
    int64_t g = m.gru ? 3 : 4, H = m.hidden, I = m.inputs, T = m.steps;
    std::string n = std::to_string(i);
    std::string xt = tensorType({T, 1, I}), wt = tensorType({1, g * H, I}),
                rt = tensorType({1, g * H, H}), bt = tensorType({1, 2 * g * H}),
                yt = tensorType({T, 1, 1, H}), ht = tensorType({1, 1, H});
    args << (i ? ", " : "") << "%x" << n << ": " << xt << " {accel.name = \"x"
         << n << "\"}, %w" << n << ": " << wt << ", %r" << n << ": " << rt
         << ", %b" << n << ": " << bt;
    body << "  %y" << n << ", %h" << n << ", %c" << n << " = graph.recurrent "
         << (m.gru ? "gru" : "lstm") << " %x" << n << ", %w" << n << ", %r" << n
         << " bias %b" << n << " {activations = "
         << (m.gru ? "[\"Sigmoid\", \"Tanh\"]"
                   : "[\"Sigmoid\", \"Tanh\", \"Tanh\"]")
         << ", direction = \"forward\", hidden_size = " << H << " : i64} : ("
         << xt << ", " << wt << ", " << rt << ", " << bt << ") -> (" << yt
         << ", " << ht << ", " << ht << ")\n";
    rets << (i ? ", " : "") << "%h" << n;
    retTypes << (i ? ", " : "") << ht << " {accel.name = \"h" << n << "\"}";
  }
  std::ostringstream os;
  os << "func.func @main(" << args.str() << ") -> (" << retTypes.str()
     << ") {\n"
     << body.str() << "  return " << rets.str() << " : ";
  for (size_t i = 0; i < models.size(); ++i)
    os << (i ? ", " : "") << tensorType({1, 1, models[i].hidden});
  os << "\n}\n";
  return os.str();
}

std::vector<float> randomValues(size_t n, uint32_t seed, float scale) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(n);
  for (float &f : v)
    f = u(rng);
  return v;
}

/// The weights (every argument but x<i>) as constants.
LogicalResult constantWeights(func::FuncOp f) {
  OpBuilder b(f.getBody());
  for (int i = int(f.getNumArguments()) - 1; i >= 0; --i) {
    if (f.getArgAttr(unsigned(i), "accel.name"))
      continue;
    BlockArgument arg = f.getArgument(unsigned(i));
    auto ty = cast<RankedTensorType>(arg.getType());
    std::vector<float> v =
        randomValues(size_t(ty.getNumElements()), uint32_t(1000 + i), 0.1f);
    Value c = arith::ConstantOp::create(
        b, f.getLoc(), DenseElementsAttr::get(ty, ArrayRef<float>(v)));
    arg.replaceAllUsesWith(c);
    if (failed(f.eraseArgument(unsigned(i))))
      return failure();
  }
  return success();
}

bool compileAndRun(MLIRContext &ctx, const std::vector<Model> &models,
                   const Config &cfg, Result &out, std::string &err) {
  OwningOpRef<ModuleOp> m =
      parseSourceString<ModuleOp>(moduleText(models), &ctx);
  if (!m || failed(constantWeights(*m->getOps<func::FuncOp>().begin()))) {
    err = "the benchmark module does not build";
    return false;
  }
  SplitPipelineOptions split;
  split.rnnClusters = cfg.clusters;
  split.rnnContexts = cfg.contexts;
  split.rnnEngine = cfg.engine;
  Program prog;
  if (!compileToProgram(*m, cfg.hwPath, split, prog, err))
    return false;
  HardwareDesc hw;
  if (!loadHardwareDesc(cfg.hwPath, hw, err))
    return false;
  std::map<std::string, Tensor> inputs;
  for (size_t i = 0; i < models.size(); ++i) {
    Tensor t;
    t.shape = {models[i].steps, 1, models[i].inputs};
    t.data = randomValues(size_t(t.numElements()), uint32_t(i), 1.0f);
    inputs["x" + std::to_string(i)] = t;
  }
  SimOptions opts;
  opts.hazardsAreErrors = true;
  return simulate(prog, hw, inputs, opts, out.outputs, out.stats, err);
}

/// The engine's MAC utilisation over the clusters the run used: useful
/// products / (npe x cycles x clusters).
double engineUtilisation(const SimStats &s, const HardwareDesc &hw,
                         int64_t clusters) {
  double npe = double(hw.pesPerCluster) * hw.macLanes;
  return s.cycles ? double(s.macs) / (npe * double(s.cycles) * double(clusters))
                  : 0;
}

/// Useful products / (npe x the engine's span): how busy the engine is
/// while it runs the tasks.
double spanUtilisation(const SimStats &s, const HardwareDesc &hw) {
  double npe = double(hw.pesPerCluster) * hw.macLanes;
  return s.rnn.spanCycles ? double(s.macs) / (npe * double(s.rnn.spanCycles))
                          : 0;
}

class Bench {
public:
  Bench(MLIRContext &ctx, bool quick) : ctx(ctx), quick(quick) {}

  bool run(const std::string &hwPath) {
    return figure1(hwPath) && concurrent(hwPath) &&
           concurrent(root + "/hw/rnn-npe64k.json") && sweep() &&
           contract(hwPath);
  }

  std::string root = ACCEL_SOURCE_DIR;

private:
  bool runOrReport(const std::vector<Model> &models, const Config &cfg,
                   Result &r) {
    std::string err;
    if (compileAndRun(ctx, models, cfg, r, err))
      return true;
    std::fprintf(stderr, "accel-rnn-bench: %s\n", err.c_str());
    return false;
  }

  /// (a) Three LSTMs of 2, 3, 2 steps on one engine.
  bool figure1(const std::string &) {
    std::string hw = root + "/hw/rnn-npe64k.json";
    std::vector<Model> models = {
        {false, 256, 256, 2}, {false, 256, 256, 3}, {false, 256, 256, 2}};
    Result seq, mt;
    if (!runOrReport(models, {hw, 1, 1}, seq) ||
        !runOrReport(models, {hw, 1, 3}, mt))
      return false;
    std::printf("(a) Fig. 1b/1f: three LSTMs (hidden 256) of 2, 3, 2 steps on "
                "one cluster of hw/rnn-npe64k.json\n");
    std::printf("    %-14s %10s %12s %12s %9s %9s\n", "", "cycles",
                "engine span", "engine busy", "idle", "switches");
    for (auto [name, r] :
         {std::pair<const char *, Result *>{"sequential", &seq},
          {"multithreaded", &mt}})
      std::printf("    %-14s %10llu %12llu %12llu %9llu %9llu\n", name,
                  (unsigned long long)r->stats.cycles,
                  (unsigned long long)r->stats.rnn.spanCycles,
                  (unsigned long long)r->stats.rnn.issueCycles,
                  (unsigned long long)r->stats.rnn.idleCycles,
                  (unsigned long long)r->stats.rnn.switches);
    std::printf(
        "    engine span %.2fx shorter, utilisation %.1f %% -> %.1f %% "
        "(the spec's idealised 15C -> 8C: 1.88x, 46.7 %% -> 87.5 %%); "
        "the program's cycles are mostly the weights' fill from DRAM\n\n",
        double(seq.stats.rnn.spanCycles) / double(mt.stats.rnn.spanCycles),
        100.0 * double(seq.stats.rnn.issueCycles) /
            double(seq.stats.rnn.spanCycles),
        100.0 * double(mt.stats.rnn.issueCycles) /
            double(mt.stats.rnn.spanCycles));
    return sameOutputs(seq, mt);
  }

  /// The runs compute the same products in the same order: equal outputs.
  bool sameOutputs(const Result &a, const Result &b) {
    for (auto &[name, t] : a.outputs) {
      const std::vector<float> &o = b.outputs.at(name).data;
      if (o == t.data)
        continue;
      double worst = 0;
      for (size_t i = 0; i < o.size(); ++i)
        worst = std::max(worst, double(std::fabs(o[i] - t.data[i])));
      std::fprintf(stderr,
                   "accel-rnn-bench: output %s differs between the "
                   "sequential and the multithreaded run (max %g)\n",
                   name.c_str(), worst);
      return false;
    }
    return true;
  }

  /// (b) 1..8 models on one cluster, sequential vs multithreaded.
  bool concurrent(const std::string &hwPath) {
    HardwareDesc hw;
    std::string err;
    if (!loadHardwareDesc(hwPath, hw, err))
      return false;
    std::printf("(b) concurrent models on one cluster of %s (16 steps, batch "
                "1), one thread context (seq) and %u (thr): program cycles, "
                "the engine's span (first block to last write-back, after the "
                "weight fill), its speed-up and MAC utilisation over the "
                "span; \"plain\": the weights do not fit the PE weight "
                "queues, the layers keep the per-step GEMM lowering\n",
                hw.name.c_str(), hw.instructionBuffers);
    std::printf("    %-5s %6s %7s %11s %11s %11s %11s %8s %9s\n", "cell",
                "hidden", "models", "cycles seq", "cycles thr", "engine seq",
                "engine thr", "speed-up", "eng util");
    std::vector<int64_t> hiddens =
        quick ? std::vector<int64_t>{128, 256}
              : std::vector<int64_t>{128, 256, 512, 1024};
    std::vector<int> counts =
        quick ? std::vector<int>{1, 4} : std::vector<int>{1, 2, 4, 8};
    for (bool gru : {false, true})
      for (int64_t h : hiddens)
        for (int n : counts) {
          std::vector<Model> models(size_t(n), Model{gru, h, h, 16});
          Result seq, mt;
          if (!runOrReport(models, {hwPath, 1, 1}, seq) ||
              !runOrReport(models, {hwPath, 1, 0}, mt) || !sameOutputs(seq, mt))
            return false;
          const RnnEngineStats &a = seq.stats.rnn, &b = mt.stats.rnn;
          std::printf("    %-5s %6lld %7d %11llu %11llu ", gru ? "GRU" : "LSTM",
                      (long long)h, n, (unsigned long long)seq.stats.cycles,
                      (unsigned long long)mt.stats.cycles);
          if (!b.spanCycles) { // the weights do not stay in the queues
            std::printf("%11s %11s %7.2fx %9s\n", "plain", "plain",
                        double(seq.stats.cycles) / double(mt.stats.cycles),
                        "-");
            continue;
          }
          std::printf("%11llu %11llu %7.2fx %7.1f %%\n",
                      (unsigned long long)a.spanCycles,
                      (unsigned long long)b.spanCycles,
                      double(a.spanCycles) / double(b.spanCycles),
                      100 * spanUtilisation(mt.stats, hw));
        }
    std::printf("\n");
    return true;
  }

  /// (c) The cost model's step cycles per EP (hidden 512, lx = 512).
  bool sweep() {
    std::printf("(c) EP sweep of the cost model (LSTM hidden 512, inputs 512): "
                "step cycles\n");
    for (const char *preset : {"rnn-npe16k", "rnn-npe64k"}) {
      HardwareDesc hw;
      std::string err;
      if (!loadHardwareDesc(root + "/hw/" + preset + ".json", hw, err))
        return false;
      rnn::Engine e = rnn::engineOf(hw);
      std::printf("    npe %-6lld", (long long)e.npe);
      for (const rnn::EpVp &c : rnn::sweepEp(e, {2048, 1024, 512}))
        std::printf("  ep %lld: %lld", (long long)c.ep,
                    (long long)c.stepCycles);
      std::printf("  (selected ep %lld)\n",
                  (long long)rnn::selectEpVp(e, {2048, 1024, 512}).ep);
    }
    std::printf("\n");
    return true;
  }

  /// The contract line: 4 LSTMs of hidden 256 on --hw.
  bool contract(const std::string &hwPath) {
    HardwareDesc hw;
    std::string err;
    if (!loadHardwareDesc(hwPath, hw, err))
      return false;
    std::vector<Model> four(4, Model{false, 256, 256, 16});
    Result seq, mt, oneSeq, oneMt;
    if (!runOrReport(four, {hwPath, 1, 1}, seq) ||
        !runOrReport(four, {hwPath, 0, 0}, mt) ||
        !runOrReport({four[0]}, {hwPath, 0, 1}, oneSeq) ||
        !runOrReport({four[0]}, {hwPath, 0, 0}, oneMt) || !sameOutputs(seq, mt))
      return false;
    int64_t clustersUsed = std::min<int64_t>(4, hw.numClusters());
    double speedup = double(seq.stats.cycles) / double(mt.stats.cycles);
    double util = 100 * engineUtilisation(mt.stats, hw, clustersUsed);
    double overhead =
        100 * (double(oneMt.stats.cycles) - double(oneSeq.stats.cycles)) /
        double(oneSeq.stats.cycles);
    std::printf("4 LSTMs (hidden 256, 16 steps, batch 1) on %s: one at a time "
                "on one cluster %llu cycles, default compile (%lld clusters, "
                "%u contexts) %llu cycles; one LSTM alone %llu cycles with one "
                "context, %llu with all\n",
                hw.name.c_str(), (unsigned long long)seq.stats.cycles,
                (long long)clustersUsed, hw.instructionBuffers,
                (unsigned long long)mt.stats.cycles,
                (unsigned long long)oneSeq.stats.cycles,
                (unsigned long long)oneMt.stats.cycles);
    std::printf("rnn: 4 LSTMs %.2fx over sequential, MAC utilisation %.1f %%, "
                "single-task overhead %.1f %%\n",
                speedup, util, overhead);
    return true;
  }

  MLIRContext &ctx;
  bool quick;
};

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  std::string hwPath = std::string(ACCEL_SOURCE_DIR) + "/hw/default.json";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--hw" && i + 1 < argc)
      hwPath = argv[++i];
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "accel-rnn-bench: unknown argument '" << a << "'\n"
                << kUsage;
      return 2;
    }
  }
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect, graph::GraphDialect,
                  isa::IsaDialect>();
  registerAccelDialect(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  Bench bench(ctx, quick);
  return bench.run(hwPath) ? 0 : 1;
}
