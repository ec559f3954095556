//===- Json.cpp - Decisions and parameters as JSON text -------------------===//
#include "Internal.h"

#include <cstdio>
#include <sstream>

using namespace accel::tiling;

namespace {
std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

struct Obj {
  std::ostringstream os;
  bool first = true;
  std::string indent;
  explicit Obj(std::string ind = "  ") : indent(std::move(ind)) { os << "{"; }
  Obj &raw(const char *k, const std::string &v) {
    os << (first ? "\n" : ",\n") << indent << '"' << k << "\": " << v;
    first = false;
    return *this;
  }
  Obj &str(const char *k, const std::string &v) {
    return raw(k, '"' + v + '"');
  }
  Obj &i(const char *k, int64_t v) { return raw(k, std::to_string(v)); }
  Obj &u(const char *k, uint64_t v) { return raw(k, std::to_string(v)); }
  Obj &f(const char *k, double v) { return raw(k, num(v)); }
  Obj &b(const char *k, bool v) { return raw(k, v ? "true" : "false"); }
  std::string done() {
    os << "\n" << indent.substr(2) << "}";
    return os.str();
  }
};
} // namespace

std::string accel::tiling::toJson(const TileDecision &d) {
  Obj o;
  o.b("feasible", d.feasible);
  if (!d.feasible) {
    o.str("error", d.error);
    return o.done();
  }
  o.str("branch", branchName(d.branch))
      .str("strategy", strategyName(d.strategy))
      .i("partition_m", d.partitionM)
      .i("partition_n", d.partitionN)
      .i("partition_k", d.partitionK)
      .i("tile_m", d.tileM)
      .i("tile_n", d.tileN)
      .i("outloop_rowmajor_flag", d.outerRowMajor)
      .i("inloop_rowmajor_flag", d.innerRowMajor)
      .i("need_splitk_flag", d.needSplitK)
      .i("acc_buffer_flag", d.accBufferFlag)
      .u("acc_buffer_needed", d.accBufferNeeded)
      .u("acc_bytes_used", d.accBytesUsed)
      .i("loada", d.loadA)
      .i("loadb", d.loadB)
      .f("util", d.util)
      .f("gemm_cycles", d.gemmCycles)
      .f("load_a_cycles", d.loadACycles)
      .f("load_b_cycles", d.loadBCycles)
      .f("cycles", d.cycles);
  if (!d.halving.empty()) { // the selection's trace of branch X
    o.f("util_1", d.util1)
        .f("util_2", d.util2)
        .f("util_nosplitk", d.utilNoSplitK)
        .f("util_splitk", d.utilSplitK);
    std::string h = "[";
    for (size_t i = 0; i < d.halving.size(); ++i)
      h += (i ? ", " : "") + std::string("{\"acc_bytes\": ") +
           std::to_string(d.halving[i].accBytes) +
           ", \"util\": " + num(d.halving[i].util) + "}";
    h += "]";
    o.raw("halving", h);
  }
  return o.done();
}

std::string accel::tiling::toJson(const TilingHardware &hw) {
  Obj o;
  o.f("hw_power_macs_per_cycle", hw.macsPerCycle)
      .f("mata_bw", hw.aBytesPerCycle)
      .f("matb_bw", hw.bBytesPerCycle)
      .u("b_s1", hw.aBufferBytes)
      .u("b_s2", hw.bBufferBytes)
      .u("acc_buffer_max", hw.accBufferBytes)
      .u("acc_elem_bytes", hw.accElemBytes)
      .i("block_size", hw.blockSize)
      .u("sync_granularity", hw.syncGranularityBytes)
      .i("inloop_rowmajor_flag", hw.innerRowMajor);
  return o.done();
}
