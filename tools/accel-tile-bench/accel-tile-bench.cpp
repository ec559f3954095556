//===- accel-tile-bench.cpp - Selected vs exhaustive vs naive tilings -----===//
//
// Runs the shape suite of issue 4 (every GEMM of BERT-Large for sequence
// 128/384/512 and batch 1/8/32; the convolutions of ResNet-50 as GEMMs) on
// hardware presets and prints, per shape, the modelled cycles of the
// selected tiling, of the exhaustive optimum and of two naive baselines,
// with the time each search takes; then a summary per preset.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/TileSelection.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace accel;
using namespace accel::tiling;

#ifndef ACCEL_SOURCE_DIR
#define ACCEL_SOURCE_DIR "."
#endif

namespace {

const char *kUsage =
    R"(usage: accel-tile-bench [--hw-dir DIR] [--suite all|bert|resnet]
                        [--csv FILE] [--summary-only]
       accel-tile-bench --simulate [--hw FILE] [--suite all|bert|resnet]
                        [--max-macs N] [--refine]
       accel-tile-bench --machine-search [--hw FILE] [--suite ...]
                        [--max-macs N] [--max-steps S]

Prints per shape: selected vs exhaustive-optimal modelled cycles, selection
and exhaustive-search time (microseconds, mean over repetitions), and the
naive baselines (fixed loop order without split-K; fixed 64x64 tiles), then a
summary per hardware configuration.

--simulate: simulated cycles (accel::simulate of the lowered matmul) of the
selected tiling vs the naive baselines on one machine (default
hw/bandwidth-starved.json) for the suite's shapes with at most N MACs
(default 3e8; convolutions as their dense GEMM), the machine-level prediction
and the geometric-mean speed-up. --refine: the selected tiling refined under
the machine prediction (tiling::refineForMachine, select-tiling
refine=machine).

--machine-search: for the same shapes, the best mapping a search finds under
the machine prediction (tiling::machineCycles) next to the selected tiling
and the naive baselines, all priced by that prediction: how much speed-up a
machine-aware choice could add on this kernel (mappings with more than S
partition steps are skipped, default 20000).
)";

struct Config {
  std::string name;
  TilingHardware hw;
  unsigned elemBytes;
};

volatile double gSink = 0;

/// Wall time of one f() call in microseconds: the mean over a batch of
/// calls (at least `minReps`, at least `minMicros` long), the lowest of 5
/// batches (the machine is shared; the minimum filters other processes).
template <class F> double timeMean(F &&f, double minMicros, int minReps) {
  using clk = std::chrono::steady_clock;
  double best = INFINITY;
  for (int round = 0; round < 5; ++round) {
    int reps = 0;
    auto t0 = clk::now();
    double elapsed = 0;
    do {
      f();
      ++reps;
      elapsed =
          std::chrono::duration<double, std::micro>(clk::now() - t0).count();
    } while (reps < minReps || elapsed < minMicros);
    best = std::min(best, elapsed / reps);
  }
  return best;
}

struct Summary {
  int shapes = 0, within1 = 0, exact = 0;
  double worstGap = 0;
  std::string worstShape;
  double selSum = 0, selMax = 0, exhSum = 0, exhMax = 0, baseSum = 0;
  double logSpeedBest = 0, logSpeedOrder = 0, logSpeedBlock = 0;
  double logSpeedSquare = 0;
  int infeasible = 0;
};

} // namespace

int runSimulatedBench(const std::string &hwPath, const std::string &suite,
                      double maxMacs, bool refine);
int runMachineSearch(const std::string &hwPath, const std::string &suite,
                     double maxMacs, double maxSteps);

int main(int argc, char **argv) {
  std::string hwDir = std::string(ACCEL_SOURCE_DIR) + "/hw";
  std::string suite = "all", csvPath;
  bool summaryOnly = false, simulated = false, machineSearch = false,
       refine = false;
  double maxSteps = 20000;
  std::string simHw =
      std::string(ACCEL_SOURCE_DIR) + "/hw/bandwidth-starved.json";
  double maxMacs = 3e8;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "accel-tile-bench: " << a << ": missing value\n";
        std::exit(1);
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--hw-dir") {
      hwDir = value();
    } else if (a == "--suite") {
      suite = value();
    } else if (a == "--csv") {
      csvPath = value();
    } else if (a == "--simulate") {
      simulated = true;
    } else if (a == "--refine") {
      refine = true;
    } else if (a == "--machine-search") {
      machineSearch = true;
    } else if (a == "--max-steps") {
      maxSteps = std::atof(value().c_str());
    } else if (a == "--hw") {
      simHw = value();
    } else if (a == "--max-macs") {
      maxMacs = std::atof(value().c_str());
    } else if (a == "--summary-only") {
      summaryOnly = true;
    } else {
      std::cerr << "accel-tile-bench: unknown argument '" << a << "'\n";
      return 1;
    }
  }
  if (suite != "all" && suite != "bert" && suite != "resnet") {
    std::cerr << "accel-tile-bench: --suite must be all, bert or resnet\n";
    return 1;
  }
  if (simulated)
    return runSimulatedBench(simHw, suite, maxMacs, refine);
  if (machineSearch)
    return runMachineSearch(simHw, suite, maxMacs, maxSteps);

  // Hardware configurations: the default machine, the bandwidth-starved and
  // asymmetric presets (and the large one), all operands in DRAM.
  std::vector<Config> configs;
  HardwareDesc def = defaultHardware();
  configs.push_back(
      {"default", deriveTilingHardware(def), computeElemBytes(def)});
  for (const char *preset : {"bandwidth-starved", "asymmetric", "large"}) {
    HardwareDesc hw;
    std::string err;
    if (!loadHardwareDesc(hwDir + "/" + preset + ".json", hw, err)) {
      std::cerr << "accel-tile-bench: " << err << "\n";
      return 1;
    }
    configs.push_back({preset, deriveTilingHardware(hw), computeElemBytes(hw)});
  }
  // Operand-asymmetric bandwidth: B held on chip (weight LD rate) while A
  // streams from DRAM, on the default and the bandwidth-starved machine.
  {
    DeriveOptions o;
    o.b = Placement::OnChip;
    configs.push_back({"default+b-onchip", deriveTilingHardware(def, o),
                       computeElemBytes(def)});
    HardwareDesc starved;
    std::string err;
    if (!loadHardwareDesc(hwDir + "/bandwidth-starved.json", starved, err)) {
      std::cerr << "accel-tile-bench: " << err << "\n";
      return 1;
    }
    configs.push_back({"starved+b-onchip", deriveTilingHardware(starved, o),
                       computeElemBytes(starved)});
    // The parameters the lowering selects with (the GEMM kernel's storage
    // layout caps the buffers: codegen::kernelTilingHardware).
    configs.push_back({"default (kernel)",
                       codegen::kernelTilingHardware(def, false),
                       computeElemBytes(def)});
    configs.push_back({"starved (kernel)",
                       codegen::kernelTilingHardware(starved, false),
                       computeElemBytes(starved)});
  }

  std::ofstream csv;
  if (!csvPath.empty()) {
    csv.open(csvPath);
    if (!csv) {
      std::cerr << "accel-tile-bench: cannot write " << csvPath << "\n";
      return 1;
    }
    csv << "config,shape,m,k,n,count,strategy,partition_m,partition_n,"
           "partition_k,outer_rowmajor,need_splitk,acc_bytes,selected_cycles,"
           "exhaustive_cycles,gap_pct,select_us,exhaustive_us,visited,"
           "naive_order_cycles,naive_64x64_cycles,square_splitk_cycles\n";
  }

  std::vector<std::pair<std::string, Summary>> summaries;
  for (const Config &cfg : configs) {
    std::vector<NamedProblem> shapes;
    if (suite != "resnet")
      shapes = bertLargeGemms(cfg.elemBytes);
    if (suite != "bert") {
      auto r = resnet50Gemms(cfg.elemBytes, {1, 32});
      shapes.insert(shapes.end(), r.begin(), r.end());
    }
    Summary s;
    if (!summaryOnly) {
      std::printf(
          "\n== %s: hw_power %.0f MAC/cycle, mata_bw %.4g, matb_bw %.4g "
          "B/cycle, b_s1 %llu, b_s2 %llu, acc %llu B, d_s %u\n",
          cfg.name.c_str(), cfg.hw.macsPerCycle, cfg.hw.aBytesPerCycle,
          cfg.hw.bBytesPerCycle, (unsigned long long)cfg.hw.aBufferBytes,
          (unsigned long long)cfg.hw.bBufferBytes,
          (unsigned long long)cfg.hw.accBufferBytes, cfg.elemBytes);
      std::printf("%-36s %6s %5s %6s %-10s %10s %10s %6s %6s %7s %10s %5s "
                  "%10s %5s %10s %5s\n",
                  "shape", "m", "k", "n", "strategy", "selected", "exhaustive",
                  "gap%", "sel_us", "exh_us", "naive-ord", "x", "naive-64", "x",
                  "square-sk", "x");
    }
    for (const NamedProblem &np : shapes) {
      const GemmProblem &p = np.problem;
      TileDecision sel = selectTiling(p, cfg.hw);
      ExhaustiveStats st;
      TileDecision exh = exhaustiveTiling(p, cfg.hw, &st);
      TileDecision b1 = baselineTiling(p, cfg.hw, Baseline::FixedOrderNoSplit);
      TileDecision b2 = baselineTiling(p, cfg.hw, Baseline::FixedBlockTiles);
      TileDecision b3 = baselineTiling(p, cfg.hw, Baseline::SquareSplitK);
      double selUs = timeMean(
          [&] { gSink = gSink + selectTiling(p, cfg.hw).cycles; }, 500, 100);
      double exhUs = timeMean(
          [&] { gSink = gSink + exhaustiveTiling(p, cfg.hw).cycles; }, 1000, 3);
      double baseUs = timeMean(
          [&] {
            gSink =
                gSink +
                baselineTiling(p, cfg.hw, Baseline::FixedOrderNoSplit).cycles;
          },
          200, 100);
      ++s.shapes;
      if (!sel.feasible || !exh.feasible) {
        ++s.infeasible;
        std::printf("%-36s infeasible: %s\n", np.name.c_str(),
                    (sel.feasible ? exh.error : sel.error).c_str());
        continue;
      }
      double gap = (sel.cycles - exh.cycles) / exh.cycles * 100;
      if (gap <= 1.0)
        ++s.within1;
      if (std::fabs(gap) < 1e-9)
        ++s.exact;
      if (gap > s.worstGap) {
        s.worstGap = gap;
        s.worstShape = np.name;
      }
      s.selSum += selUs;
      s.selMax = std::max(s.selMax, selUs);
      s.exhSum += exhUs;
      s.exhMax = std::max(s.exhMax, exhUs);
      s.baseSum += baseUs;
      double c1 = b1.feasible ? b1.cycles : INFINITY;
      double c2 = b2.feasible ? b2.cycles : INFINITY;
      double c3 = b3.feasible ? b3.cycles : INFINITY;
      s.logSpeedOrder += std::log(c1 / sel.cycles);
      s.logSpeedBlock += std::log(c2 / sel.cycles);
      s.logSpeedBest += std::log(std::min(c1, c2) / sel.cycles);
      s.logSpeedSquare += std::log(c3 / sel.cycles);
      if (!summaryOnly)
        std::printf("%-36s %6lld %5lld %6lld %-10s %10.4g %10.4g %6.2f %6.2f "
                    "%7.1f %10.4g %5.2f %10.4g %5.2f %10.4g %5.2f\n",
                    np.name.c_str(), (long long)p.m, (long long)p.k,
                    (long long)p.n, strategyName(sel.strategy), sel.cycles,
                    exh.cycles, gap, selUs, exhUs, c1, c1 / sel.cycles, c2,
                    c2 / sel.cycles, c3, c3 / sel.cycles);
      if (csv)
        csv << cfg.name << ',' << np.name << ',' << p.m << ',' << p.k << ','
            << p.n << ',' << p.count << ',' << strategyName(sel.strategy) << ','
            << sel.partitionM << ',' << sel.partitionN << ',' << sel.partitionK
            << ',' << sel.outerRowMajor << ',' << sel.needSplitK << ','
            << sel.accBufferNeeded << ',' << sel.cycles << ',' << exh.cycles
            << ',' << gap << ',' << selUs << ',' << exhUs << ',' << st.visited
            << ',' << c1 << ',' << c2 << ',' << c3 << '\n';
    }
    summaries.push_back({cfg.name, s});
  }

  std::printf(
      "\n== summary (modelled cycles; times in microseconds per call)\n");
  std::printf("%-18s %6s %8s %7s %7s %8s %8s %8s %8s %8s %8s %8s %8s %9s\n",
              "config", "shapes", "within1%", "exact", "worst%", "sel_mean",
              "sel_max", "exh_mean", "exh_max", "base_us", "vs_best",
              "vs_order", "vs_64", "vs_square");
  int all = 0, allWithin = 0;
  double allSel = 0, allSelMax = 0, allExh = 0, allExhMax = 0;
  for (auto &[name, s] : summaries) {
    int n = std::max(1, s.shapes - s.infeasible);
    all += s.shapes - s.infeasible;
    allWithin += s.within1;
    allSel += s.selSum;
    allSelMax = std::max(allSelMax, s.selMax);
    allExh += s.exhSum;
    allExhMax = std::max(allExhMax, s.exhMax);
    std::printf("%-18s %6d %7.1f%% %6.1f%% %7.3f %8.2f %8.2f %8.1f %8.1f %8.2f "
                "%7.2fx %7.2fx %7.2fx %8.2fx\n",
                name.c_str(), s.shapes, 100.0 * s.within1 / n,
                100.0 * s.exact / n, s.worstGap, s.selSum / n, s.selMax,
                s.exhSum / n, s.exhMax, s.baseSum / n,
                std::exp(s.logSpeedBest / n), std::exp(s.logSpeedOrder / n),
                std::exp(s.logSpeedBlock / n), std::exp(s.logSpeedSquare / n));
    if (!s.worstShape.empty())
      std::printf("%-18s worst shape: %s\n", "", s.worstShape.c_str());
  }
  std::printf(
      "all: %d shape x config pairs, %.2f%% within 1%% of the exhaustive "
      "optimum; selection mean %.2f us (max %.2f), exhaustive mean "
      "%.1f us (max %.1f)\n",
      all, 100.0 * allWithin / std::max(1, all), allSel / std::max(1, all),
      allSelMax, allExh / std::max(1, all), allExhMax);
  std::printf("vs_*: geometric-mean modelled speed-up of the selected tiling "
              "over the better of the two naive baselines / the fixed order "
              "without split-K / fixed 64x64 tiles / a square split-K "
              "partition without the spec's reasoning\n");
  return 0;
}
