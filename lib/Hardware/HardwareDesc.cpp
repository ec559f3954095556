//===- HardwareDesc.cpp - JSON hardware description
//------------------------===//
//
// One table (forEachField) names every scalar field with its JSON path and
// its constraint; parsing, validation, serialisation, equality and the
// fingerprint all walk that table, so a field added there is handled
// everywhere. The channel list is the only non-scalar field.
//
//===----------------------------------------------------------------------===//
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Support/FileRead.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace accel;

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

const char *accel::dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  case DType::I1:
    return "i1";
  case DType::I64:
    return "i64";
  }
  return "?";
}

unsigned accel::dtypeBytes(DType t) {
  switch (t) {
  case DType::F32:
    return 4;
  case DType::F16:
    return 2;
  case DType::BF16:
    return 2;
  case DType::I8:
    return 1;
  case DType::I32:
    return 4;
  case DType::I1:
    return 1;
  case DType::I64:
    return 8;
  }
  return 0;
}

bool accel::parseDType(const std::string &s, DType &out) {
  static const std::pair<const char *, DType> names[] = {
      {"f32", DType::F32}, {"f16", DType::F16}, {"bf16", DType::BF16},
      {"i8", DType::I8},   {"i32", DType::I32}, {"i1", DType::I1},
      {"i64", DType::I64}};
  for (auto &n : names)
    if (s == n.first) {
      out = n.second;
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// The field table
//===----------------------------------------------------------------------===//

namespace {

constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

/// Constraint of an integer field.
struct IntRule {
  uint64_t min = 0;
  uint64_t max = std::numeric_limits<uint64_t>::max();
  bool pow2 = false;
  uint64_t multipleOf = 0;
  const char *why = nullptr; ///< explanation appended to multiple-of errors
};
/// Constraint of a real field: finite, > 0 (positive) or >= 0.
struct RealRule {
  bool positive = true;
  double min = 0;               ///< > 0: the least value (inclusive)
  const char *why = nullptr;    ///< explanation appended to min errors
  double max = 0;               ///< > 0: the largest value (inclusive)
  const char *maxWhy = nullptr; ///< explanation appended to max errors
};

IntRule atLeast(uint64_t min, uint64_t max = kU32Max) {
  IntRule r;
  r.min = min;
  r.max = max;
  return r;
}
IntRule pow2Rule(uint64_t min, uint64_t max = kU32Max) {
  IntRule r = atLeast(min, max);
  r.pow2 = true;
  return r;
}
IntRule multipleRule(uint64_t mult, uint64_t max, const char *why) {
  IntRule r = atLeast(mult, max);
  r.multipleOf = mult;
  r.why = why;
  return r;
}
IntRule accBufferRule() {
  IntRule r = multipleRule(4, 1ull << 32, "whole f32 elements");
  r.min = 16;
  return r;
}
/// A transfer rate in bytes per cycle: at least 2^-10, so that moving all of
/// the largest DRAM (2^48 bytes) takes at most 2^58 cycles and no cycle
/// count of the simulator overflows (a rate of 1e-20 wrapped them around).
constexpr RealRule kRate{true, 1.0 / 1024,
                         "a slower rate would overflow the cycle counts"};
constexpr RealRule kNonNegative{false};
/// The clock: at least 1 kHz, at most 1 PHz, so that a run's time in
/// microseconds (cycles / clock) stays finite (5e-324 GHz made it inf, a
/// null in stats.json).
constexpr RealRule kClock{true, 1e-6,
                          "a slower clock would overflow the run times", 1e6,
                          "a faster clock is not a machine"};
/// An energy per event (pJ): at most 1e9 (a millijoule), so that a run's
/// totals (events x energy) stay finite (1e308 made them inf, a null in
/// stats.json).
constexpr RealRule kEnergy{false, 0, nullptr, 1e9,
                           "a larger energy per event would overflow the "
                           "energy totals"};
// Fields added after the first fingerprinted machines (issue 11) enter the
// canonical bytes only when they differ from their default, so that every
// description that does not use them keeps its fingerprint (and compiled
// programs their validity).
/// A boolean field (any value is valid) with its default.
struct FlagRule {
  bool defaultValue;
};
/// A file-name field: empty (the default), or letters, digits, '_', '-', '.'
/// not starting with '.' (a name under a fixed directory, never a path).
struct FileNameRule {};
/// rnn.npe: not a field any more (the RNN engine is one cluster's PE array,
/// npe = cluster.pes * pe.mac_lanes), but still an accepted JSON key, checked
/// against the PE array, and a constant of the fingerprint: every machine
/// fingerprinted while it was a free field had the value 16384, and the
/// fields it is now derived from are hashed anyway.
struct LegacyNpeRule {};
constexpr uint32_t kLegacyFingerprintNpe = 16384;
/// An integer field whose default value is left out of the fingerprint.
struct LateIntRule : IntRule {
  uint64_t defaultValue = 0;
};
constexpr FileNameRule kFileName{};
LateIntRule lateAtLeast(uint64_t min, uint64_t max, uint64_t defaultValue) {
  LateIntRule r;
  r.min = min;
  r.max = max;
  r.defaultValue = defaultValue;
  return r;
}

/// Calls v(group, key, member, rule) for every scalar field except name and
/// description, in a fixed order (the order of hardwareToJson and of the
/// fingerprint). group "" = top level.
template <class HW, class V> void forEachField(HW &hw, V &&v) {
  v("", "clock_ghz", hw.clockGHz, kClock);
  v("grid", "rows", hw.rows, atLeast(1, 64));
  v("grid", "cols", hw.cols, atLeast(1, 64));
  v("cluster", "pes", hw.pesPerCluster, atLeast(1, 1024));
  v("cluster", "instruction_buffers", hw.instructionBuffers, atLeast(1, 32));
  v("cluster", "instruction_buffer_depth", hw.instructionBufferDepth,
    atLeast(1, 256));
  v("cluster", "register_file_entries", hw.registerFileEntries,
    atLeast(1, 1u << 20));
  v("cluster", "storage_bytes", hw.storageBytes, pow2Rule(64, 1ull << 32));
  v("cluster", "storage_bytes_per_cycle", hw.storageBytesPerCycle, kRate);
  v("cluster", "act_load_bytes_per_cycle", hw.actLoadBytesPerCycle, kRate);
  v("cluster", "weight_load_bytes_per_cycle", hw.weightLoadBytesPerCycle,
    kRate);
  v("cluster", "shared_cache", hw.sharedClusterCache, FlagRule{true});
  v("pe", "mac_lanes", hw.macLanes, atLeast(1, 1u << 20));
  v("pe", "input_buffer_bytes", hw.inputBufferBytes,
    multipleRule(64, 1ull << 32, "16 slots of whole f32 elements"));
  v("pe", "weight_queue_bytes", hw.weightQueueBytes,
    multipleRule(4, 1ull << 32, "whole f32 elements"));
  // At least one f32 in each of the four accumulation buffers (the GEMM
  // kernels split the buffer four ways).
  v("pe", "acc_buffer_bytes", hw.accBufferBytes, accBufferRule());
  v("pe", "sfu_lanes", hw.sfuLanes, atLeast(1, 1u << 20));
  v("latency", "mac_pipeline", hw.macPipelineLatency, atLeast(0));
  v("latency", "sfu", hw.sfuLatency, atLeast(0));
  v("latency", "command_issue", hw.commandIssueCycles, atLeast(1));
  v("latency", "barrier", hw.barrierLatency, atLeast(0));
  // memory.channels is handled separately (between these two groups).
  v("memory", "dram_bytes", hw.dramBytes, atLeast(4, 1ull << 48));
  v("mesh", "hop_latency", hw.hopLatency, atLeast(0));
  v("mesh", "link_bytes_per_cycle", hw.linkBytesPerCycle, kRate);
  v("tiling", "block_size", hw.blockSize, pow2Rule(1, 1u << 16));
  v("tiling", "sync_granularity_bytes", hw.syncGranularityBytes,
    atLeast(1, 1ull << 32));
  v("split", "database", hw.splitDatabase, kFileName);
  v("split", "activation_tile", hw.splitActivationTile,
    lateAtLeast(0, 1u << 20, 0));
  v("split", "weight_tile", hw.splitWeightTile, lateAtLeast(0, 1u << 20, 0));
  v("rnn", "npe", kLegacyFingerprintNpe, LegacyNpeRule{});
  v("rnn", "ep_max", hw.rnnEpMax, pow2Rule(1, 1u << 30));
  v("rnn", "cat_width", hw.rnnCatWidth, pow2Rule(1, 1u << 30));
  v("rnn", "multiplier_latency", hw.rnnMultiplierLatency, atLeast(0));
  v("rnn", "adder_tree_level_latency", hw.rnnAdderTreeLevelLatency, atLeast(0));
  v("rnn", "accumulator_latency", hw.rnnAccumulatorLatency, atLeast(0));
  v("rnn", "activation_latency", hw.rnnActivationLatency, atLeast(0));
  v("rnn", "tail_latency", hw.rnnTailLatency, atLeast(0));
  v("rnn", "write_back_latency", hw.rnnWriteBackLatency, atLeast(0));
  v("rnn", "thread_switch_cycles", hw.threadSwitchCycles, atLeast(0));
  v("power", "wake_latency_cycles", hw.wakeLatencyCycles, atLeast(0));
  v("power", "static_pj_per_cluster_cycle", hw.staticPjPerClusterCycle,
    kEnergy);
  v("power", "pj_per_mac", hw.pjPerMac, kEnergy);
  v("power", "pj_per_dram_byte", hw.pjPerDramByte, kEnergy);
  v("power", "pj_per_storage_byte", hw.pjPerStorageByte, kEnergy);
  v("power", "pj_per_byte_hop", hw.pjPerByteHop, kEnergy);
  v("numerics", "compute", hw.computeType, 0);
  v("numerics", "accumulate", hw.accumulateType, 0);
}

/// The largest memory.channels[i].max_outstanding (a DMA engine's request
/// window; far beyond what a channel's latency-bandwidth product needs).
constexpr uint32_t kMaxOutstanding = 65536;

const char *kChannelKeys[] = {"bytes_per_cycle", "latency_cycles", "router",
                              "max_outstanding"};

std::string path(const char *group, const char *key) {
  return *group ? std::string(group) + "." + key : std::string(key);
}
std::string channelPath(size_t i, const char *key) {
  return "memory.channels[" + std::to_string(i) + "]" +
         (key ? std::string(".") + key : std::string());
}

bool isPow2(uint64_t v) { return v && !(v & (v - 1)); }

bool checkFileName(const std::string &p, const std::string &v,
                   std::string &err) {
  bool ok = v.size() <= 128 && (v.empty() || v[0] != '.');
  for (char c : v)
    ok &= (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  if (!ok)
    err = p + ": \"" + v +
          "\" is not a file name (letters, digits, '_', '-', '.', not "
          "starting with '.', at most 128 characters)";
  return ok;
}

bool checkInt(const std::string &p, uint64_t v, const IntRule &r,
              std::string &err) {
  if (v < r.min) {
    err = p + ": must be >= " + std::to_string(r.min) + " (got " +
          std::to_string(v) + ")";
    return false;
  }
  if (v > r.max) {
    err = p + ": must be <= " + std::to_string(r.max) + " (got " +
          std::to_string(v) + ")";
    return false;
  }
  if (r.pow2 && !isPow2(v)) {
    err = p + ": must be a power of two (got " + std::to_string(v) + ")";
    return false;
  }
  if (r.multipleOf && v % r.multipleOf) {
    err = p + ": must be a multiple of " + std::to_string(r.multipleOf) +
          (r.why ? std::string(" (") + r.why + ")" : std::string()) + " (got " +
          std::to_string(v) + ")";
    return false;
  }
  return true;
}

/// The shortest of 15 to 17 significant digits that reads back as `d`
/// (1e-06, not 9.9999999999999995e-07).
std::string fmtReal(double d) {
  std::string text;
  for (int digits = 15; digits <= 17; ++digits) {
    std::ostringstream os;
    os.precision(digits);
    os << d;
    text = os.str();
    if (std::strtod(text.c_str(), nullptr) == d)
      break;
  }
  return text;
}

bool checkReal(const std::string &p, double v, const RealRule &r,
               std::string &err) {
  if (!std::isfinite(v)) {
    err = p + ": must be a finite number";
    return false;
  }
  if (r.positive ? !(v > 0) : !(v >= 0)) {
    err = p + (r.positive ? ": must be > 0" : ": must be >= 0") + " (got " +
          fmtReal(v) + ")";
    return false;
  }
  if (v < r.min) {
    err = p + ": must be >= " + fmtReal(r.min) + " (got " + fmtReal(v) + ")" +
          (r.why ? std::string(": ") + r.why : std::string());
    return false;
  }
  if (r.max > 0 && v > r.max) {
    err = p + ": must be <= " + fmtReal(r.max) + " (got " + fmtReal(v) + ")" +
          (r.maxWhy ? std::string(": ") + r.maxWhy : std::string());
    return false;
  }
  return true;
}

/// Validation visitor: checks each field against its rule.
struct Validator {
  std::string &err;
  bool ok = true;
  void operator()(const char *g, const char *k, uint32_t v, const IntRule &r) {
    if (ok)
      ok = checkInt(path(g, k), v, r, err);
  }
  void operator()(const char *g, const char *k, uint64_t v, const IntRule &r) {
    if (ok)
      ok = checkInt(path(g, k), v, r, err);
  }
  void operator()(const char *g, const char *k, double v, const RealRule &r) {
    if (ok)
      ok = checkReal(path(g, k), v, r, err);
  }
  void operator()(const char *g, const char *k, DType v, int) {
    if (ok && dtypeBytes(v) == 0) {
      err = path(g, k) + ": invalid element type";
      ok = false;
    }
  }
  void operator()(const char *, const char *, bool, FlagRule) {}
  void operator()(const char *, const char *, uint32_t, LegacyNpeRule) {}
  void operator()(const char *g, const char *k, const std::string &v,
                  FileNameRule) {
    if (ok)
      ok = checkFileName(path(g, k), v, err);
  }
};

using json = nlohmann::json;

std::string typeName(const json &j) {
  if (j.is_number_float())
    return "a real number";
  if (j.is_number_integer())
    return "an integer";
  std::string t = j.type_name();
  return (t[0] == 'a' || t[0] == 'o' ? "an " : "a ") + t;
}

/// Reads one JSON value into a field (type checks + integer range).
bool readU64(const std::string &p, const json &j, uint64_t max, uint64_t &out,
             std::string &err) {
  if (!j.is_number_integer()) {
    err = p + ": expected an integer, got " + typeName(j);
    return false;
  }
  if (!j.is_number_unsigned()) {
    int64_t s = j.get<int64_t>();
    if (s < 0) {
      err = p + ": must be >= 0 (got " + std::to_string(s) + ")";
      return false;
    }
  }
  uint64_t v = j.get<uint64_t>();
  if (v > max) {
    err = p + ": must be <= " + std::to_string(max) + " (got " +
          std::to_string(v) + ")";
    return false;
  }
  out = v;
  return true;
}

/// `router: [row, col]` -> row-major cluster index inside the grid.
bool readRouter(const std::string &p, const json &j, const HardwareDesc &hw,
                int32_t &out, std::string &err) {
  if (!j.is_array() || j.size() != 2) {
    err = p + ": expected [row, col], got " + j.dump();
    return false;
  }
  uint64_t rc[2];
  for (int i = 0; i < 2; ++i)
    if (!readU64(p + "[" + std::to_string(i) + "]", j[i], kU32Max, rc[i], err))
      return false;
  // An empty grid is reported by the grid.* checks.
  if (hw.rows && hw.cols && (rc[0] >= hw.rows || rc[1] >= hw.cols)) {
    err = p + ": [" + std::to_string(rc[0]) + ", " + std::to_string(rc[1]) +
          "] is outside the " + std::to_string(hw.rows) + " x " +
          std::to_string(hw.cols) + " grid";
    return false;
  }
  out = int32_t(rc[0] * hw.cols + rc[1]);
  return true;
}

struct Reader {
  const json &root;
  std::string &err;
  bool ok = true;
  /// rnn.npe as written, if it is; checked once the PE array is known.
  bool npeGiven = false;
  uint64_t givenNpe = 0;

  const json *find(const char *g, const char *k) {
    const json *obj = &root;
    if (*g) {
      auto it = root.find(g);
      if (it == root.end())
        return nullptr;
      obj = &*it;
    }
    auto it = obj->find(k);
    return it == obj->end() ? nullptr : &*it;
  }
  void operator()(const char *g, const char *k, uint32_t &v, const IntRule &r) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    uint64_t u;
    // Report negative values against the rule's minimum.
    if (j->is_number_integer() && !j->is_number_unsigned() &&
        j->get<int64_t>() < 0) {
      err = path(g, k) + ": must be >= " + std::to_string(r.min) + " (got " +
            std::to_string(j->get<int64_t>()) + ")";
      ok = false;
      return;
    }
    if (!(ok = readU64(path(g, k), *j, std::min<uint64_t>(r.max, kU32Max), u,
                       err)))
      return;
    v = uint32_t(u);
  }
  void operator()(const char *g, const char *k, uint64_t &v, const IntRule &r) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    if (j->is_number_integer() && !j->is_number_unsigned() &&
        j->get<int64_t>() < 0) {
      err = path(g, k) + ": must be >= " + std::to_string(r.min) + " (got " +
            std::to_string(j->get<int64_t>()) + ")";
      ok = false;
      return;
    }
    ok = readU64(path(g, k), *j, r.max, v, err);
  }
  void operator()(const char *g, const char *k, double &v, const RealRule &) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    if (!j->is_number()) {
      err = path(g, k) + ": expected a number, got " + typeName(*j);
      ok = false;
      return;
    }
    v = j->get<double>();
  }
  void operator()(const char *g, const char *k, DType &v, int) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    if (!j->is_string()) {
      err = path(g, k) + ": expected a string, got " + typeName(*j);
      ok = false;
      return;
    }
    // i1 / i64 are interface types only, never a machine's numerics.
    if (!parseDType(j->get<std::string>(), v) || v == DType::I1 ||
        v == DType::I64) {
      err = path(g, k) + ": unknown element type \"" + j->get<std::string>() +
            "\" (expected f32, f16, bf16, i8 or i32)";
      ok = false;
    }
  }
  void operator()(const char *g, const char *k, bool &v, FlagRule) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    if (!j->is_boolean()) {
      err = path(g, k) + ": expected a boolean, got " + typeName(*j);
      ok = false;
      return;
    }
    v = j->get<bool>();
  }
  void operator()(const char *g, const char *k, const uint32_t &,
                  LegacyNpeRule) {
    const json *j = ok ? find(g, k) : nullptr;
    if (j)
      ok = npeGiven = readU64(
          path(g, k), *j, std::numeric_limits<uint64_t>::max(), givenNpe, err);
  }
  void operator()(const char *g, const char *k, std::string &v, FileNameRule) {
    const json *j = ok ? find(g, k) : nullptr;
    if (!j)
      return;
    if (!j->is_string()) {
      err = path(g, k) + ": expected a string, got " + typeName(*j);
      ok = false;
      return;
    }
    v = j->get<std::string>();
  }
};

/// Canonical bytes of every fingerprinted field (key path + value).
struct Canon {
  std::string bytes;
  void raw(const void *p, size_t n) {
    bytes.append(static_cast<const char *>(p), n);
  }
  void key(const char *g, const char *k) {
    std::string p = path(g, k);
    bytes += p;
    bytes.push_back('\0');
  }
  void u64(uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = (unsigned char)(v >> (8 * i));
    raw(b, 8);
  }
  void real(double d) {
    if (d == 0)
      d = 0; // -0.0 and 0.0 hash alike
    uint64_t u;
    std::memcpy(&u, &d, 8);
    u64(u);
  }
  void operator()(const char *g, const char *k, uint32_t v, const IntRule &) {
    key(g, k);
    u64(v);
  }
  void operator()(const char *g, const char *k, uint64_t v, const IntRule &) {
    key(g, k);
    u64(v);
  }
  void operator()(const char *g, const char *k, double v, const RealRule &) {
    key(g, k);
    real(v);
  }
  void operator()(const char *g, const char *k, DType v, int) {
    key(g, k);
    u64(uint64_t(v));
  }
  void operator()(const char *g, const char *k, uint32_t v, LegacyNpeRule) {
    key(g, k);
    u64(v);
  }
  // The late fields: only when not at their default.
  void operator()(const char *g, const char *k, uint32_t v,
                  const LateIntRule &r) {
    if (v != r.defaultValue)
      (*this)(g, k, v, static_cast<const IntRule &>(r));
  }
  void operator()(const char *g, const char *k, bool v, FlagRule r) {
    if (v == r.defaultValue)
      return;
    key(g, k);
    u64(v ? 1 : 0);
  }
  void operator()(const char *g, const char *k, const std::string &v,
                  FileNameRule) {
    if (v.empty())
      return;
    key(g, k);
    u64(v.size());
    bytes += v;
  }
  void channels(const std::vector<MemoryChannel> &chs) {
    key("memory", "channels");
    u64(chs.size());
    for (auto &c : chs) {
      real(c.bytesPerCycle);
      u64(c.latencyCycles);
    }
    // Added after binary format 5: enters the fingerprint only when not at
    // its default, so that binaries written for the default machine before
    // it existed still validate (their code does not depend on it).
    for (size_t i = 0; i < chs.size(); ++i)
      if (chs[i].maxOutstanding != MemoryChannel().maxOutstanding) {
        key("memory", "channels.max_outstanding");
        u64(i);
        u64(chs[i].maxOutstanding);
      }
    // Routers that differ from the derived one: (channel, cluster) pairs.
    uint64_t explicitRouters = 0;
    for (auto &c : chs)
      explicitRouters += c.routerCluster >= 0;
    if (!explicitRouters)
      return;
    key("memory", "channels.router");
    u64(explicitRouters);
    for (size_t i = 0; i < chs.size(); ++i)
      if (chs[i].routerCluster >= 0) {
        u64(i);
        u64(uint64_t(chs[i].routerCluster));
      }
  }
};

/// The router a channel gets when its description names none.
uint32_t derivedRouter(const HardwareDesc &hw, uint32_t ch) {
  for (uint32_t c = 0; c < hw.numClusters(); ++c)
    if (hw.channelOf(c) == ch)
      return c;
  return 0;
}

/// Canonical bytes of the machine with spelled-out defaults folded back to
/// "derived" (a database named after the cache flag, a channel's router
/// where it would be anyway): they describe the same machine.
std::string canonicalBytes(const HardwareDesc &hw) {
  HardwareDesc resolved = hw;
  HardwareDesc derived = hw;
  derived.splitDatabase.clear();
  if (hw.splitDatabase == derived.splitDatabaseName())
    resolved.splitDatabase.clear();
  for (uint32_t ch = 0; ch < hw.channels.size(); ++ch)
    if (hw.channels[ch].routerCluster == int32_t(derivedRouter(hw, ch)))
      resolved.channels[ch].routerCluster = -1;
  Canon c;
  forEachField(resolved, c);
  c.channels(resolved.channels);
  return c.bytes;
}

/// Collects the known groups and keys of the table.
struct KeyCollector {
  std::set<std::string> groups, keys;
  template <class T, class R>
  void operator()(const char *g, const char *k, const T &, const R &) {
    if (*g)
      groups.insert(g);
    keys.insert(path(g, k));
  }
};

/// The RNN engine is one cluster's PE array: an adder tree sums the MAC lanes
/// of one PE, so it is at most mac_lanes wide, and the CAT sits on its last
/// levels.
bool checkRnnEngine(const HardwareDesc &hw, std::string &err) {
  if (hw.rnnEpMax > hw.macLanes) {
    err = "rnn.ep_max: " + std::to_string(hw.rnnEpMax) +
          " exceeds pe.mac_lanes " + std::to_string(hw.macLanes) +
          " (an adder tree sums the MAC lanes of one PE; use a power of two "
          "<= " +
          std::to_string(hw.macLanes) + ")";
    return false;
  }
  if (hw.rnnCatWidth > hw.rnnEpMax) {
    err = "rnn.cat_width: must be <= rnn.ep_max (" +
          std::to_string(hw.rnnCatWidth) + " > " + std::to_string(hw.rnnEpMax) +
          ")";
    return false;
  }
  return true;
}

/// An rnn.npe given in the JSON must be the PE array's size.
bool checkGivenNpe(const HardwareDesc &hw, const Reader &r, std::string &err) {
  const uint64_t given = r.givenNpe;
  if (!r.npeGiven || given == hw.rnnNpe())
    return true;
  err = "rnn.npe " + std::to_string(given) + " does not match the PE array (" +
        std::to_string(hw.pesPerCluster) + " PEs x " +
        std::to_string(hw.macLanes) +
        " MAC lanes = " + std::to_string(hw.rnnNpe()) +
        "); the RNN engine is one cluster's PE array, leave rnn.npe out";
  return false;
}

bool crossChecks(const HardwareDesc &hw, std::string &err) {
  if (hw.channels.empty()) {
    err = "memory.channels: must list at least one channel";
    return false;
  }
  for (size_t i = 0; i < hw.channels.size(); ++i) {
    if (!checkReal(channelPath(i, "bytes_per_cycle"),
                   hw.channels[i].bytesPerCycle, kRate, err))
      return false;
    const uint32_t q = hw.channels[i].maxOutstanding;
    if (q < 1 || q > kMaxOutstanding) {
      err = channelPath(i, "max_outstanding") + ": must be in 1.." +
            std::to_string(kMaxOutstanding) + " (got " + std::to_string(q) +
            ")";
      return false;
    }
    int32_t router = hw.channels[i].routerCluster;
    if (router < -1 || (router >= 0 && uint32_t(router) >= hw.numClusters())) {
      err = channelPath(i, "router") + ": cluster " + std::to_string(router) +
            " is outside the " + std::to_string(hw.rows) + " x " +
            std::to_string(hw.cols) + " grid";
      return false;
    }
  }
  if (hw.channels.size() > uint64_t(hw.rows) * hw.cols) {
    err = "memory.channels: " + std::to_string(hw.channels.size()) +
          " channels for " + std::to_string(hw.rows * hw.cols) +
          " clusters (every channel must serve at least one cluster)";
    return false;
  }
  if (!checkRnnEngine(hw, err))
    return false;
  // Accumulation must be at least as wide as compute and of the same kind
  // (integer compute accumulates in i32, float compute in a float type).
  bool cInt = hw.computeType == DType::I8 || hw.computeType == DType::I32;
  bool aInt = hw.accumulateType == DType::I8 || hw.accumulateType == DType::I32;
  if (cInt != aInt ||
      dtypeBytes(hw.accumulateType) < dtypeBytes(hw.computeType) ||
      hw.accumulateType == DType::I8) {
    err = std::string("numerics.accumulate: ") + dtypeName(hw.accumulateType) +
          " cannot accumulate " + dtypeName(hw.computeType) +
          " products (use " + (cInt ? "i32" : "f32") + ")";
    return false;
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// HardwareDesc members
//===----------------------------------------------------------------------===//

uint32_t HardwareDesc::channelOf(uint32_t cluster) const {
  uint64_t n = numClusters();
  if (channels.empty() || n == 0)
    return 0;
  uint64_t ch = uint64_t(cluster) * channels.size() / n;
  return uint32_t(std::min<uint64_t>(ch, channels.size() - 1));
}

double HardwareDesc::dramBytesPerCycle() const {
  double bw = 0;
  for (const MemoryChannel &ch : channels)
    bw += ch.bytesPerCycle;
  return bw;
}

uint64_t HardwareDesc::channelRegionBytes() const {
  uint64_t n = std::max<uint64_t>(channels.size(), 1);
  return std::max<uint64_t>(dramBytes / n / 64 * 64, 64);
}

uint32_t HardwareDesc::channelOfAddress(uint64_t addr) const {
  if (channels.empty())
    return 0;
  uint64_t ch = addr / channelRegionBytes();
  return uint32_t(std::min<uint64_t>(ch, channels.size() - 1));
}

uint32_t HardwareDesc::channelRouter(uint32_t ch) const {
  if (ch < channels.size() && channels[ch].routerCluster >= 0)
    return uint32_t(channels[ch].routerCluster);
  return derivedRouter(*this, ch);
}

uint32_t HardwareDesc::meshHops(uint32_t from, uint32_t to) const {
  int64_t dr = int64_t(from / cols) - int64_t(to / cols);
  int64_t dc = int64_t(from % cols) - int64_t(to % cols);
  return uint32_t((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
}

uint32_t HardwareDesc::channelHops(uint32_t cluster, uint32_t ch) const {
  return 1 + meshHops(cluster, channelRouter(ch));
}

std::string HardwareDesc::splitDatabaseName() const {
  if (!splitDatabase.empty())
    return splitDatabase;
  return sharedClusterCache ? "shared-cache" : "bus-contention";
}

uint32_t HardwareDesc::activationTile() const {
  return splitActivationTile ? splitActivationTile : blockSize;
}

uint32_t HardwareDesc::weightTile() const {
  return splitWeightTile ? splitWeightTile : blockSize;
}

uint64_t HardwareDesc::fingerprint() const {
  std::string bytes = canonicalBytes(*this);
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

bool HardwareDesc::operator==(const HardwareDesc &o) const {
  return name == o.name && description == o.description &&
         canonicalBytes(*this) == canonicalBytes(o);
}

//===----------------------------------------------------------------------===//
// Parsing and printing
//===----------------------------------------------------------------------===//

bool accel::validateHardwareDesc(const HardwareDesc &hw, std::string &err) {
  Validator v{err};
  forEachField(hw, v);
  if (!v.ok)
    return false;
  return crossChecks(hw, err);
}

bool accel::parseHardwareDesc(const std::string &jsonText, HardwareDesc &out,
                              std::string &err) {
  json root;
  try {
    root = json::parse(jsonText);
  } catch (const json::exception &e) {
    // e.what() names line and column (parse errors) or the bad number.
    err = std::string("invalid JSON: ") + e.what();
    return false;
  }
  if (!root.is_object()) {
    err = "hardware description: expected a JSON object, got " + typeName(root);
    return false;
  }

  // Unknown keys (typo protection) and group types.
  KeyCollector known;
  forEachField(static_cast<const HardwareDesc &>(HardwareDesc{}), known);
  known.groups.insert("memory");
  known.keys.insert("memory.channels");
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string &k = it.key();
    if (k == "name" || k == "description") {
      if (!it->is_string()) {
        err = k + ": expected a string, got " + typeName(*it);
        return false;
      }
      continue;
    }
    if (known.groups.count(k)) {
      if (!it->is_object()) {
        err = k + ": expected an object, got " + typeName(*it);
        return false;
      }
      for (auto jt = it->begin(); jt != it->end(); ++jt)
        if (!known.keys.count(k + "." + jt.key())) {
          err = k + "." + jt.key() + ": unknown key";
          return false;
        }
      continue;
    }
    if (!known.keys.count(k)) {
      err = k + ": unknown key";
      return false;
    }
  }

  HardwareDesc hw;
  if (root.contains("name"))
    hw.name = root["name"].get<std::string>();
  if (root.contains("description"))
    hw.description = root["description"].get<std::string>();
  Reader r{root, err};
  forEachField(hw, r);
  if (!r.ok)
    return false;

  // memory.channels
  if (root.contains("memory") && root["memory"].contains("channels")) {
    const json &chs = root["memory"]["channels"];
    if (!chs.is_array()) {
      err = "memory.channels: expected an array, got " + typeName(chs);
      return false;
    }
    hw.channels.clear();
    for (size_t i = 0; i < chs.size(); ++i) {
      const json &c = chs[i];
      if (!c.is_object()) {
        err = channelPath(i, nullptr) + ": expected an object, got " +
              typeName(c);
        return false;
      }
      MemoryChannel mc;
      for (auto it = c.begin(); it != c.end(); ++it) {
        const std::string &k = it.key();
        std::string p = channelPath(i, k.c_str());
        if (k == kChannelKeys[0]) {
          if (!it->is_number()) {
            err = p + ": expected a number, got " + typeName(*it);
            return false;
          }
          mc.bytesPerCycle = it->get<double>();
        } else if (k == kChannelKeys[1]) {
          if (it->is_number_integer() && !it->is_number_unsigned() &&
              it->get<int64_t>() < 0) {
            err = p + ": must be >= 0 (got " +
                  std::to_string(it->get<int64_t>()) + ")";
            return false;
          }
          uint64_t u;
          if (!readU64(p, *it, kU32Max, u, err))
            return false;
          mc.latencyCycles = uint32_t(u);
        } else if (k == kChannelKeys[2]) {
          if (!readRouter(p, *it, hw, mc.routerCluster, err))
            return false;
        } else if (k == kChannelKeys[3]) {
          uint64_t u;
          if (!readU64(p, *it, kU32Max, u, err))
            return false;
          mc.maxOutstanding = uint32_t(u);
        } else {
          err = p + ": unknown key";
          return false;
        }
      }
      hw.channels.push_back(mc);
    }
  }

  if (!validateHardwareDesc(hw, err) || !checkGivenNpe(hw, r, err))
    return false;
  out = std::move(hw);
  return true;
}

bool accel::loadHardwareDesc(const std::string &path, HardwareDesc &out,
                             std::string &err) {
  std::string text;
  if (!readRegularFile(path, "hardware description", kMaxHardwareDescBytes,
                       text, err))
    return false;
  if (!parseHardwareDesc(text, out, err)) {
    err = "hardware description '" + path + "': " + err;
    return false;
  }
  return true;
}

HardwareDesc accel::defaultHardware() { return HardwareDesc{}; }

namespace {
struct Writer {
  nlohmann::ordered_json &root;
  nlohmann::ordered_json &slot(const char *g, const char *k) {
    return *g ? root[g][k] : root[k];
  }
  void operator()(const char *g, const char *k, uint32_t v, const IntRule &) {
    slot(g, k) = v;
  }
  void operator()(const char *g, const char *k, uint64_t v, const IntRule &) {
    slot(g, k) = v;
  }
  void operator()(const char *g, const char *k, double v, const RealRule &) {
    slot(g, k) = v;
  }
  void operator()(const char *g, const char *k, DType v, int) {
    slot(g, k) = dtypeName(v);
  }
  void operator()(const char *g, const char *k, bool v, FlagRule) {
    slot(g, k) = v;
  }
  // rnn.npe is derived: printing it would make an edited PE array invalid.
  void operator()(const char *, const char *, uint32_t, LegacyNpeRule) {}
  void operator()(const char *g, const char *k, const std::string &v,
                  FileNameRule) {
    slot(g, k) = v;
  }
};
} // namespace

std::string accel::hardwareToJson(const HardwareDesc &hw) {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  root["name"] = hw.name;
  if (!hw.description.empty())
    root["description"] = hw.description;
  Writer w{root};
  // Reserve the memory group's position so channels come first in it.
  forEachField(
      hw, [&](const char *g, const char *k, const auto &v, const auto &r) {
        if (std::string(g) == "memory" && !root.contains("memory")) {
          auto chs = nlohmann::ordered_json::array();
          // A derived router (-1) stays implicit, like an empty
          // split.database, so that editing the grid of a printed
          // description keeps it valid.
          for (const MemoryChannel &c : hw.channels) {
            nlohmann::ordered_json jc = {{"bytes_per_cycle", c.bytesPerCycle},
                                         {"latency_cycles", c.latencyCycles},
                                         {"max_outstanding", c.maxOutstanding}};
            uint32_t cols = std::max<uint32_t>(hw.cols, 1);
            if (c.routerCluster >= 0)
              jc["router"] = {uint32_t(c.routerCluster) / cols,
                              uint32_t(c.routerCluster) % cols};
            chs.push_back(jc);
          }
          root["memory"]["channels"] = chs;
        }
        w(g, k, v, r);
      });
  return root.dump(2) + "\n";
}

uint64_t MemoryChannel::beatCycles(double bytes) const {
  return bytes <= 0 ? 0 : uint64_t(std::ceil(bytes / bytesPerCycle));
}

uint64_t MemoryChannel::occupancyCycles(double bytes,
                                        uint64_t extraLatency) const {
  const uint64_t q = std::max<uint32_t>(1, maxOutstanding);
  return beatCycles(bytes) + (latencyCycles + extraLatency + q - 1) / q;
}

uint64_t MemoryChannel::completionCycles(double bytes,
                                         uint64_t extraLatency) const {
  return latencyCycles + extraLatency + beatCycles(bytes);
}
