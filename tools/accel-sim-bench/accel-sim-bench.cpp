//===- accel-sim-bench.cpp - PE sparsity / load-balancing / SFU benchmark -===//
//
// Issue 5 benchmark (not a test). Builds real-sized FC and conv-as-GEMM
// layer programs with the Program API (LayerProgram.cpp), simulates them and
// prints:
//   1. PE-array cycles vs weight sparsity 0..90 % (activations dense), vs
//      activation sparsity 0..90 % (weights dense but sparse-encoded) and
//      vs activation sparsity skewed across the PEs (mean 0..90 %), for
//      the dense weight queue, the sparse queue with index compare, and the
//      sparse queue with load balancing; every run's output is compared
//      with the dense run bit for bit;
//   2. output-queue accesses and cycles with a ReLU epilogue, chained
//      (MAC sfu bit) vs decoupled SFU mode.
//
//   accel-sim-bench [--hw FILE] [--quick]
//
// The default machine is hw/default.json's cluster on a 1 x 1 grid with
// one memory channel (one cluster runs the layer).
//
//===----------------------------------------------------------------------===//
#include "LayerProgram.h"
#include "accel/Target/Validate.h"

#include <cstdio>
#include <cstring>
#include <random>

using namespace accel;
using namespace accel::bench;

namespace {

struct Result {
  SimStats st;
  std::vector<float> c;
};

bool runLayer(const HardwareDesc &hw, const Layer &l,
              const std::vector<float> &A, const std::vector<float> &W,
              const LayerOptions &o, Result &r) {
  Program p;
  std::string err;
  if (!buildLayerProgram(hw, l, W, o, p, err) || !validateProgram(p, hw, err)) {
    std::fprintf(stderr, "accel-sim-bench: error: %s\n", err.c_str());
    return false;
  }
  std::map<std::string, Tensor> in, out;
  in["a"] = Tensor{{l.M, l.K}, A};
  if (!simulate(p, hw, in, SimOptions{}, out, r.st, err)) {
    std::fprintf(stderr, "accel-sim-bench: error: %s\n", err.c_str());
    return false;
  }
  r.c = std::move(out["c"].data);
  return true;
}

std::vector<float> randomMatrix(size_t n, double zeroFraction,
                                std::mt19937 &rng) {
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  std::bernoulli_distribution zero(zeroFraction);
  std::vector<float> v(n);
  for (float &x : v) {
    x = val(rng);
    if (x == 0.0f || zero(rng))
      x = 0.0f;
  }
  return v;
}

uint64_t peCycles(const SimStats &s) { return s.clusters[0].peBusyCycles; }

/// Activations whose zero fraction falls linearly over the rows of each M
/// tile, from 2f (row 0, PE 0) to 0 (last row, last PE), clipped to [0, 1]:
/// the right PEs get more work, which the left-pushing load balancer can
/// move.
std::vector<float> skewedActivations(const Layer &l, double f,
                                     std::mt19937 &rng) {
  std::vector<float> v;
  for (uint32_t i = 0; i < l.M; ++i) {
    double z = 2 * f * (1.0 - double(i % l.Mt) / double(l.Mt - 1));
    std::vector<float> row = randomMatrix(l.K, z > 1 ? 1 : z, rng);
    v.insert(v.end(), row.begin(), row.end());
  }
  return v;
}

enum class Sweep { Weights, Acts, SkewedActs };

bool sweep(const HardwareDesc &hw, const Layer &l, Sweep kind) {
  const bool weights = kind == Sweep::Weights;
  const char *what = weights               ? "weight"
                     : kind == Sweep::Acts ? "activation"
                                           : "skewed activation";
  std::printf("\n%s sparsity sweep, %s (M %u, K %u, N %u; tiles %u x %u x "
              "%u)\n",
              what, l.name.c_str(), l.M, l.K, l.N, l.Mt, l.Kt, l.Nt);
  std::printf("| %s | dense queue | sparse (index compare) | sparse + LB | "
              "LB moved | effective MACs | speed-up | speed-up LB | total "
              "cycles dense / sparse+LB | identical |\n",
              weights ? "weight zeros %" : "activation zeros %");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (int pct = 0; pct <= 90; pct += 10) {
    std::mt19937 rng(1234 + pct);
    double f = pct / 100.0;
    std::vector<float> A =
        kind == Sweep::SkewedActs
            ? skewedActivations(l, f, rng)
            : randomMatrix(size_t(l.M) * l.K, weights ? 0 : f, rng);
    std::vector<float> W =
        randomMatrix(size_t(l.K) * l.N, weights ? f : 0, rng);
    Result dense, sparse, lb;
    LayerOptions o;
    if (!runLayer(hw, l, A, W, o, dense))
      return false;
    o.sparseWeights = true;
    if (!runLayer(hw, l, A, W, o, sparse))
      return false;
    o.loadBalance = true;
    if (!runLayer(hw, l, A, W, o, lb))
      return false;
    bool same = dense.c == sparse.c && dense.c == lb.c;
    std::printf("| %d | %llu | %llu | %llu | %llu | %llu | %.2fx | %.2fx | "
                "%llu / %llu | %s |\n",
                pct, (unsigned long long)peCycles(dense.st),
                (unsigned long long)peCycles(sparse.st),
                (unsigned long long)peCycles(lb.st),
                (unsigned long long)lb.st.balancedMacs,
                (unsigned long long)sparse.st.effectiveMacs,
                double(peCycles(dense.st)) / double(peCycles(sparse.st)),
                double(peCycles(dense.st)) / double(peCycles(lb.st)),
                (unsigned long long)dense.st.cycles,
                (unsigned long long)lb.st.cycles, same ? "yes" : "NO");
    if (!same)
      return false;
  }
  return true;
}

bool sfuModes(const HardwareDesc &hw, const Layer &l) {
  std::mt19937 rng(99);
  std::vector<float> A = randomMatrix(size_t(l.M) * l.K, 0, rng);
  std::vector<float> W = randomMatrix(size_t(l.K) * l.N, 0, rng);
  Result ch, dc;
  LayerOptions o;
  o.epilogue = SfuFunc::Relu;
  if (!runLayer(hw, l, A, W, o, ch))
    return false;
  o.sfuChained = false;
  if (!runLayer(hw, l, A, W, o, dc))
    return false;
  std::printf("\nSFU modes, %s with a ReLU epilogue (%llu result elements)\n",
              l.name.c_str(), (unsigned long long)ch.st.chainedResults);
  std::printf("| mode | output-queue accesses | drains | PE cycles | "
              "identical |\n|---|---|---|---|---|\n");
  std::printf("| chained | %llu | %llu | %llu | %s |\n",
              (unsigned long long)ch.st.outputQueueAccesses,
              (unsigned long long)ch.st.outputQueueDrains,
              (unsigned long long)peCycles(ch.st), ch.c == dc.c ? "yes" : "NO");
  std::printf("| decoupled | %llu | %llu | %llu | |\n",
              (unsigned long long)dc.st.outputQueueAccesses,
              (unsigned long long)dc.st.outputQueueDrains,
              (unsigned long long)peCycles(dc.st));
  std::printf("chained saves %.1f %% of the output-queue accesses\n",
              100.0 * (1.0 - double(ch.st.outputQueueAccesses) /
                                 double(dc.st.outputQueueAccesses)));
  return ch.c == dc.c;
}

} // namespace

static const char kUsage[] =
    "usage: accel-sim-bench [--hw FILE] [--quick]\n"
    "\n"
    "PE benchmark (docs/simulator.md): real-sized FC and conv-as-GEMM "
    "layers on one\n"
    "cluster of the machine, simulated. Prints PE-array cycles against "
    "weight sparsity,\n"
    "activation sparsity and activation sparsity skewed across the PEs "
    "(0..90 %) for\n"
    "the dense weight queue, the sparse queue with index compare and with "
    "load\n"
    "balancing (every output equal to the dense run's), then output-queue "
    "accesses\n"
    "and cycles of a ReLU epilogue, SFU chained vs decoupled.\n"
    "  --hw FILE   hardware description JSON; its cluster runs every layer "
    "on a 1 x 1\n"
    "              grid with one memory channel (default: hw/default.json's)\n"
    "  --quick     fewer layers and sparsity levels (the figure check's run)\n";

int main(int argc, char **argv) {
  HardwareDesc hw = defaultHardware();
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--hw" && i + 1 < argc) {
      std::string err;
      if (!loadHardwareDesc(argv[++i], hw, err)) {
        std::fprintf(stderr, "accel-sim-bench: error: %s\n", err.c_str());
        return 1;
      }
    } else {
      std::fprintf(stderr, "accel-sim-bench: error: unknown argument '%s'\n%s",
                   a.c_str(), kUsage);
      return 1;
    }
  }
  hw.rows = hw.cols = 1; // one cluster runs each layer, on one channel
  hw.channels.resize(1);
  std::printf("hardware '%s' (1 cluster): %u PEs x %u MAC lanes, MAC "
              "latency %u\n",
              hw.name.c_str(), hw.pesPerCluster, hw.macLanes,
              hw.macPipelineLatency);
  std::vector<Layer> layers = {
      {"FC 1024 -> 1024, batch 64", 64, 1024, 1024, 64, 128, 64},
      {"conv 3x3 256 -> 256 on 14x14 as GEMM", 196, 2304, 256, 28, 128, 64}};
  if (quick)
    layers = {{"FC 256 -> 256, batch 32", 32, 256, 256, 32, 128, 64}};
  for (const Layer &l : layers)
    if (!sweep(hw, l, Sweep::Weights) || !sweep(hw, l, Sweep::Acts) ||
        !sweep(hw, l, Sweep::SkewedActs))
      return 1;
  if (!sfuModes(hw, layers[0]))
    return 1;
  return 0;
}
