//===- accel-tile.cpp - Tile-size / loop-order decision as JSON -----------===//
//
//   accel-tile --m M --k K --n N [--hw FILE|default] [--exhaustive] ...
//
// Prints the problem, the tiling parameters derived from the hardware
// description (docs/tiling.md) and the decision of spec/tiling.md (or, with
// --exhaustive, the optimum of the exhaustive search) as one JSON object.
//
//===----------------------------------------------------------------------===//
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/TileSelection.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>

using namespace accel;
using namespace accel::tiling;

namespace {

const char *kUsage = R"(usage: accel-tile --m M --k K --n N [options]
       accel-tile --conv batch=1,ic=64,h=56,w=56,oc=64,kh=3,kw=3,stride=1,pad=1 [options]

Prints the tile-size / loop-order decision of spec/tiling.md as JSON.

problem:
  --m M --k K --n N       GEMM C[m,n] = A[m,k] B[k,n]
  --count C               independent instances (batch, heads) [1]
  --elem-bytes D          element size d_s [compute type of --hw]
  --conv LIST             convolution instead of --m/--k/--n; keys: batch, ic,
                          h, w, oc, kh, kw, stride (or stride_h/stride_w),
                          pad (or pad_t/pad_l/pad_b/pad_r), dilation (or
                          dilation_h/dilation_w), groups
hardware:
  --hw FILE|default       hardware description [default]
  --a dram|onchip         where A lives [dram]
  --b dram|onchip         where B lives [dram]
  --active-clusters N     clusters sharing the memory channels [all]
  overrides of the derived parameters:
  --hw-power P --mata-bw BW --matb-bw BW --bs1 BYTES --bs2 BYTES
  --acc-max BYTES --acc-elem-bytes D --block B --sync BYTES --inner-rowmajor 0|1
search:
  --exhaustive            print the optimum of the exhaustive search instead
  --both                  print both decisions
)";

[[noreturn]] void fail(const std::string &msg) {
  std::cerr << "accel-tile: " << msg << "\n";
  std::exit(1);
}

int64_t parseInt(const std::string &flag, const std::string &v) {
  char *end = nullptr;
  errno = 0;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end || errno)
    fail(flag + ": expected an integer, got '" + v + "'");
  return x;
}
/// A whole number in [min, max] (a negative buffer size was taken as 2^64 - n
/// and "solved").
int64_t parseCount(const std::string &flag, const std::string &v, int64_t min,
                   int64_t max = INT64_MAX) {
  int64_t x = parseInt(flag, v);
  if (x < min || x > max)
    fail(flag + ": must be " +
         (max == INT64_MAX
              ? ">= " + std::to_string(min)
              : "in " + std::to_string(min) + ".." + std::to_string(max)) +
         ", got " + v);
  return x;
}
double parseReal(const std::string &flag, const std::string &v) {
  char *end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end)
    fail(flag + ": expected a number, got '" + v + "'");
  return x;
}
Placement parsePlacement(const std::string &flag, const std::string &v) {
  if (v == "dram")
    return Placement::Dram;
  if (v == "onchip")
    return Placement::OnChip;
  fail(flag + ": expected dram or onchip, got '" + v + "'");
}

ConvShape parseConv(const std::string &list) {
  ConvShape c;
  std::map<std::string, int64_t *> keys = {{"batch", &c.batch},
                                           {"ic", &c.inChannels},
                                           {"h", &c.inH},
                                           {"w", &c.inW},
                                           {"oc", &c.outChannels},
                                           {"kh", &c.kernelH},
                                           {"kw", &c.kernelW},
                                           {"stride_h", &c.strideH},
                                           {"stride_w", &c.strideW},
                                           {"pad_t", &c.padTop},
                                           {"pad_l", &c.padLeft},
                                           {"pad_b", &c.padBottom},
                                           {"pad_r", &c.padRight},
                                           {"dilation_h", &c.dilationH},
                                           {"dilation_w", &c.dilationW},
                                           {"groups", &c.groups}};
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto eq = item.find('=');
    if (eq == std::string::npos)
      fail("--conv: expected key=value, got '" + item + "'");
    std::string k = item.substr(0, eq);
    int64_t v = parseInt("--conv " + k, item.substr(eq + 1));
    if (k == "stride")
      c.strideH = c.strideW = v;
    else if (k == "pad")
      c.padTop = c.padLeft = c.padBottom = c.padRight = v;
    else if (k == "dilation")
      c.dilationH = c.dilationW = v;
    else if (keys.count(k))
      *keys[k] = v;
    else
      fail("--conv: unknown key '" + k + "'");
  }
  return c;
}

nlohmann::ordered_json decisionJson(const TileDecision &d) {
  return nlohmann::ordered_json::parse(toJson(d));
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, std::string> opt;
  bool exhaustive = false, both = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--exhaustive") {
      exhaustive = true;
      continue;
    }
    if (a == "--both") {
      both = true;
      continue;
    }
    if (a.rfind("--", 0) != 0)
      fail("unexpected argument '" + a + "' (see --help)");
    std::string v;
    auto eq = a.find('=');
    if (eq != std::string::npos) {
      v = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    static const char *known[] = {"--m",
                                  "--k",
                                  "--n",
                                  "--count",
                                  "--elem-bytes",
                                  "--conv",
                                  "--hw",
                                  "--a",
                                  "--b",
                                  "--active-clusters",
                                  "--hw-power",
                                  "--mata-bw",
                                  "--matb-bw",
                                  "--bs1",
                                  "--bs2",
                                  "--acc-max",
                                  "--acc-elem-bytes",
                                  "--block",
                                  "--sync",
                                  "--inner-rowmajor"};
    bool ok = false;
    for (const char *k : known)
      ok |= a == k;
    if (!ok)
      fail("unknown option '" + a + "' (see --help)");
    // Known before the value: a trailing unknown option is not "missing a
    // value".
    if (eq == std::string::npos) {
      if (i + 1 >= argc)
        fail(a + ": missing value");
      v = argv[++i];
    }
    opt[a] = v;
  }

  HardwareDesc hwDesc = defaultHardware();
  if (opt.count("--hw") && opt["--hw"] != "default") {
    std::string err;
    if (!loadHardwareDesc(opt["--hw"], hwDesc, err))
      fail(err);
  }
  DeriveOptions dopt;
  if (opt.count("--a"))
    dopt.a = parsePlacement("--a", opt["--a"]);
  if (opt.count("--b"))
    dopt.b = parsePlacement("--b", opt["--b"]);
  if (opt.count("--active-clusters"))
    dopt.activeClusters =
        uint32_t(parseCount("--active-clusters", opt["--active-clusters"], 1));
  TilingHardware hw = deriveTilingHardware(hwDesc, dopt);
  if (opt.count("--hw-power"))
    hw.macsPerCycle = parseReal("--hw-power", opt["--hw-power"]);
  if (opt.count("--mata-bw"))
    hw.aBytesPerCycle = parseReal("--mata-bw", opt["--mata-bw"]);
  if (opt.count("--matb-bw"))
    hw.bBytesPerCycle = parseReal("--matb-bw", opt["--matb-bw"]);
  if (opt.count("--bs1"))
    hw.aBufferBytes = uint64_t(parseCount("--bs1", opt["--bs1"], 1));
  if (opt.count("--bs2"))
    hw.bBufferBytes = uint64_t(parseCount("--bs2", opt["--bs2"], 1));
  if (opt.count("--acc-max"))
    hw.accBufferBytes = uint64_t(parseCount("--acc-max", opt["--acc-max"], 1));
  if (opt.count("--acc-elem-bytes"))
    hw.accElemBytes =
        unsigned(parseCount("--acc-elem-bytes", opt["--acc-elem-bytes"], 1));
  if (opt.count("--block"))
    hw.blockSize = parseCount("--block", opt["--block"], 1);
  if (opt.count("--sync"))
    hw.syncGranularityBytes = uint64_t(parseCount("--sync", opt["--sync"], 1));
  if (opt.count("--inner-rowmajor"))
    hw.innerRowMajor =
        parseCount("--inner-rowmajor", opt["--inner-rowmajor"], 0, 1) != 0;
  std::string err;
  if (!validateTilingHardware(hw, err))
    fail(err);

  unsigned elemBytes = computeElemBytes(hwDesc);
  if (opt.count("--elem-bytes"))
    elemBytes = unsigned(parseCount("--elem-bytes", opt["--elem-bytes"], 1));
  GemmProblem p;
  if (opt.count("--conv")) {
    if (opt.count("--m") || opt.count("--k") || opt.count("--n"))
      fail("--conv excludes --m/--k/--n");
    if (!convToGemm(parseConv(opt["--conv"]), elemBytes, p, err))
      fail("--conv: " + err);
  } else {
    if (!opt.count("--m") || !opt.count("--k") || !opt.count("--n"))
      fail("--m, --k and --n are required (see --help)");
    p.m = parseInt("--m", opt["--m"]);
    p.k = parseInt("--k", opt["--k"]);
    p.n = parseInt("--n", opt["--n"]);
    p.elemBytes = elemBytes;
  }
  if (opt.count("--count"))
    p.count = parseInt("--count", opt["--count"]);

  nlohmann::ordered_json out;
  out["problem"] = {{"m", p.m},
                    {"k", p.k},
                    {"n", p.n},
                    {"elem_bytes", p.elemBytes},
                    {"count", p.count},
                    {"a_load_bytes", p.aBytes()},
                    {"b_load_bytes", p.bBytes()}};
  out["hardware"] = nlohmann::ordered_json::parse(toJson(hw));
  out["hardware"]["source"] = hwDesc.name;
  auto timeIt = [](auto &&f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now() - t0)
        .count();
  };
  bool ok = true;
  if (!exhaustive || both) {
    TileDecision d;
    double us = timeIt([&] { d = selectTiling(p, hw); });
    out["selected"] = decisionJson(d);
    out["selected"]["time_us"] = us;
    ok &= d.feasible;
  }
  if (exhaustive || both) {
    TileDecision d;
    ExhaustiveStats st;
    double us = timeIt([&] { d = exhaustiveTiling(p, hw, &st); });
    out["exhaustive"] = decisionJson(d);
    out["exhaustive"]["visited"] = st.visited;
    out["exhaustive"]["legal"] = st.legal;
    out["exhaustive"]["time_us"] = us;
    ok &= d.feasible;
  }
  std::cout << out.dump(2) << "\n";
  return ok ? 0 : 2;
}
