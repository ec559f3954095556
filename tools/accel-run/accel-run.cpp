//===- accel-run.cpp - Run an accelerator binary on the simulator ---------===//
//
//   accel-run BINARY [--hw FILE] --input NAME=FILE ... [--output-dir DIR]
//             [--trace FILE] [--expect NAME=FILE ...] [--atol X] [--rtol X]
//             [--no-validate] [--strict-hazards] [--per-layer] [--quiet]
//             [--report DIR]
//   accel-run BINARY --stream --input NAME=F0,F1,... [--input NAME=FILE]...
//             [--state IN=OUT]... [--output-dir DIR] [--expect NAME=F0,F1,...]
//
// Loads the binary and the hardware description (default: the built-in
// default preset), validates the program against the hardware, reads every
// input (.npy or ONNX TensorProto .pb; an integer input wants an integer
// file, docs/simulator.md), simulates, writes DIR/<output>.npy (in the
// output's declared type: float32, bool, int32 or int64; an integer value
// that is not exact is reported, not truncated) and DIR/stats.json and
// prints a summary (with the network's ideal bound;
// --per-layer adds a table of the layers sorted by cycles). --expect compares
// an output with a reference file: same shape, and |out - ref| <= atol + rtol *
// |ref| everywhere. Any error or mismatch prints a message and exits with
// status 1. --report DIR writes the HTML report (lib/Report) with
// DIR/stats.json and DIR/trace.json; outputs go to DIR too unless
// --output-dir says otherwise. On a terminal a progress line (Progress.h)
// shows how far the simulation is.
//
// --stream runs the binary once per chunk, as streaming models (voice
// activity detection, keyword spotting) are used: inputs given several
// files are the chunks, inputs given one file stay the same, and every
// --state IN=OUT feeds output OUT of chunk k into input IN of chunk k+1
// (IN's file, or zeros when it has none, is the state before chunk 0).
// Outputs go to DIR/<output>.<k>.npy, statistics to DIR/stats.<k>.json and
// the totals to DIR/stats.json (docs/simulator.md "Streaming").
//
//===----------------------------------------------------------------------===//
#include "HostTimings.h"
#include "Progress.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Report/Networks.h"
#include "accel/Report/Report.h"
#include "accel/Sim/Simulator.h"
#include "accel/Sim/TensorIO.h"
#include "accel/Support/Format.h"
#include "accel/Target/Binary.h"
#include "accel/Target/Validate.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace accel;

namespace {

const char *kUsage =
    "usage: accel-run BINARY [--hw FILE] --input NAME=FILE ... "
    "[--output-dir DIR]\n"
    "                 [--trace FILE] [--no-validate] [--strict-hazards] "
    "[--per-layer] [--quiet]\n"
    "                 [--report DIR]\n"
    "       accel-run BINARY --stream --input NAME=F0,F1,... [--state "
    "IN=OUT]... [--output-dir DIR]\n"
    "\n"
    "Simulates an accelerator binary (functional + cycle model).\n"
    "  --hw FILE          hardware description JSON (default: built-in "
    "default preset)\n"
    "  --input NAME=FILE  value of input NAME: .npy (C order) or ONNX "
    "TensorProto .pb;\n"
    "                     every program input is required; an integer "
    "input (i32 / i64,\n"
    "                     e.g. RNN sequence_lens) needs an integer file\n"
    "  --output-dir DIR   write DIR/<output>.npy and DIR/stats.json\n"
    "  --trace FILE       write a Chrome trace event JSON timeline (Perfetto, "
    "chrome://tracing)\n"
    "  --expect NAME=FILE compare output NAME with a reference (.npy or .pb); "
    "fail when\n"
    "                     the shapes or the values differ\n"
    "  --atol X, --rtol X tolerance of --expect: |out - ref| <= atol + rtol * "
    "|ref| (1e-4, 1e-4)\n"
    "  --no-validate      skip validateProgram (fingerprint, bounds); the "
    "simulator still\n"
    "                     checks every access\n"
    "  --strict-hazards   treat timing hazards (missing WAIT/BARRIER) as "
    "errors\n"
    "  --power-gating     switch off clusters with no work and clusters "
    "whose stream has\n"
    "                     finished; a stream that starts with a RECV sleeps "
    "until the signal\n"
    "                     and wakes (wake latency): the static energy counts "
    "on and waking\n"
    "                     cycles only (docs/multi-network.md)\n"
    "  --arrival NAME=CYCLES  the data of input NAME (or of every input of "
    "network NAME\n"
    "                     of a linked program) arrives at cycle CYCLES: DMAs "
    "reading it start\n"
    "                     no earlier (default 0)\n"
    "  --per-layer        print the layers sorted by cycles (share, MACs, "
    "utilisation,\n"
    "                     DRAM bytes, roofline bound, ratio, limiting unit)\n"
    "  --quiet            print nothing on success but the --per-layer "
    "table\n"
    "  --host-timings     print the host time and page faults of each phase "
    "(binary read,\n"
    "                     validation, inputs, simulation, outputs) to "
    "stderr\n"
    "  --data-lanes N     host threads moving the simulated bytes (1: none "
    "besides the\n"
    "                     simulator's; default: chosen from the program and "
    "the host);\n"
    "                     the results never depend on it\n"
    "  --report DIR       write DIR/index.html (summary, layers, roofline, "
    "utilisation over\n"
    "                     time, networks on clusters), DIR/stats.json and "
    "DIR/trace.json;\n"
    "                     the outputs go to DIR unless --output-dir is "
    "given\n"
    "  --stream           run once per chunk: --input NAME=F0,F1,... gives "
    "the chunks of\n"
    "                     a streamed input (all streamed inputs have as many), "
    "an input\n"
    "                     with one file keeps it; writes DIR/<output>.<k>.npy, "
    "DIR/stats.<k>.json\n"
    "                     and the totals in DIR/stats.json; --expect "
    "NAME=F0,F1,... per chunk\n"
    "  --state IN=OUT     (--stream) output OUT of a chunk is input IN of the "
    "next; IN's\n"
    "                     --input is the first chunk's state (zeros without "
    "one)\n";

int fail(const std::string &msg) {
  std::cerr << "accel-run: error: " << msg << "\n";
  return 1;
}

/// File name for an output symbol: characters that cannot appear in a file
/// name are replaced by '_'.
std::string fileNameFor(const std::string &name) {
  std::string s = name.empty() ? std::string("_") : name;
  for (char &c : s)
    if (c == '/' || c == '\\' || c == '\0')
      c = '_';
  if (s == "." || s == "..")
    s = "_" + s;
  return s;
}

/// Whether every output's values are exact in its declared type
/// (checkDTypeValues), checked before any file is written; `err` names the
/// first output and element that is not.
bool checkOutputValues(const std::map<std::string, Tensor> &outputs,
                       std::string &err) {
  for (auto &[name, t] : outputs)
    if (!checkDTypeValues(t, err)) {
      err = "output '" + name + "': " + err;
      return false;
    }
  return true;
}

/// Why two outputs would be written to one file (fileNameFor maps 'a/b' and
/// 'a_b' alike, and the second would overwrite the first); "" when every
/// output has a file of its own.
std::string collidingOutputFiles(const Program &prog) {
  std::map<std::string, std::string> owner;
  for (const Symbol &s : prog.symbols) {
    if (s.isInput)
      continue;
    auto [it, fresh] = owner.emplace(fileNameFor(s.name), s.name);
    if (!fresh)
      return "outputs '" + it->second + "' and '" + s.name +
             "' would both be written to " + it->first +
             ".npy; give one of them another name";
  }
  return "";
}

/// --arrival NAME=CYCLES: NAME is an input, or a network of a linked
/// program (every input NAME.*).
bool inputArrivals(const Program &prog,
                   const std::vector<std::pair<std::string, uint64_t>> &args,
                   std::map<std::string, uint64_t> &out, std::string &err) {
  for (const auto &[name, cycle] : args) {
    bool matched = false;
    for (const Symbol &s : prog.symbols)
      if (s.isInput && (s.name == name || s.name.rfind(name + ".", 0) == 0)) {
        out[s.name] = cycle;
        matched = true;
      }
    if (!matched) {
      err = "--arrival " + name + ": no input and no network of that name";
      return false;
    }
  }
  return true;
}

/// A linked program's networks (docs/multi-network.md "Reports"): when
/// each ran (its latency: from its inputs' arrival to its last cycle),
/// on how many clusters, its MAC utilisation there and dynamic energy.
void printNetworks(const Program &prog, const HardwareDesc &hw,
                   const SimStats &s,
                   const std::map<std::string, uint64_t> &arrivals) {
  std::vector<NetworkSummary> nets = networkSummaries(prog, hw, s, arrivals);
  if (nets.empty())
    return;
  std::printf("networks (makespan %llu):\n", (unsigned long long)s.cycles);
  for (const NetworkSummary &n : nets)
    std::printf("  %-12s latency %llu (arrival %llu, cycles %llu to %llu), "
                "%zu clusters, %llu MACs, MAC utilisation %.2f %%, DRAM %s, "
                "dynamic energy %.3f uJ\n",
                n.name.c_str(), (unsigned long long)(n.last - n.arrival),
                (unsigned long long)n.arrival, (unsigned long long)n.first,
                (unsigned long long)n.last, n.clusters.size(),
                (unsigned long long)n.macs, 100 * n.macUtilisation,
                formatBytes(n.dramBytes).c_str(), n.dynamicPj * 1e-6);
}

/// "cycles C, ideal bound B (C/B = R.RRx)" (docs/simulator.md "Per-layer
/// statistics"; the bound is in whole cycles).
void printIdealBound(const SimStats &s) {
  const double bound = s.idealBoundCycles;
  if (bound > 0)
    std::printf("cycles %llu, ideal bound %.0f (C/B = %.2fx)\n",
                (unsigned long long)s.cycles, bound, double(s.cycles) / bound);
  else
    std::printf("cycles %llu, ideal bound 0 (C/B = n/a)\n",
                (unsigned long long)s.cycles);
}

/// Column text of a name, at most `width` characters: the end is kept
/// (exporters' node names are paths, "/features.6/block.1/Conv"), a leading
/// "..." marks the cut.
std::string clip(const std::string &s, size_t width) {
  if (s.size() <= width)
    return s;
  return "..." + s.substr(s.size() - (width - 3));
}

/// The per-layer table: every layer of the table (and the unattributed
/// commands, if any), most cycles first.
void printLayerTable(const Program &prog, const SimStats &s) {
  std::vector<const LayerStats *> rows;
  for (const LayerStats &L : s.layers)
    rows.push_back(&L);
  if (s.unattributed.commands)
    rows.push_back(&s.unattributed);
  // Ties (e.g. layers that never ran) in table order, unattributed last.
  std::sort(
      rows.begin(), rows.end(), [](const LayerStats *a, const LayerStats *b) {
        return a->cycles != b->cycles ? a->cycles > b->cycles : a->id < b->id;
      });
  if (prog.layers.empty())
    std::printf("per-layer: the program has no layer table (written by "
                "hand, or compiled without attribution)\n");
  size_t nameW = 5, opW = 2;
  for (const LayerStats *L : rows) {
    nameW = std::max(nameW, std::min<size_t>(L->name.size(), 48));
    opW = std::max(opW, std::min<size_t>(L->op.size(), 16));
  }
  std::printf("%-*s  %-*s %10s %6s %10s %12s %6s %12s %10s %7s  %s\n",
              int(nameW), "layer", int(opW), "op", "cycles", "share",
              "exclusive", "MACs", "util", "DRAM bytes", "bound", "ratio",
              "limit");
  const double total = double(std::max<uint64_t>(s.cycles, 1));
  for (const LayerStats *L : rows) {
    char ratio[32] = "-", bound[32] = "-", limit[48] = "-";
    if (L->rooflineBound > 0) {
      std::snprintf(bound, sizeof bound, "%.0f%s", L->rooflineBound,
                    L->boundKind == "memory" ? "m" : "c");
      std::snprintf(ratio, sizeof ratio, "%.2fx", L->boundRatio);
    }
    if (L->limit != "none" && L->cycles)
      std::snprintf(limit, sizeof limit, "%s %.0f %%", L->limit.c_str(),
                    100.0 * L->limitOccupancy);
    std::printf("%-*s  %-*s %10llu %5.1f%% %10llu %12llu %5.1f%% %12llu %10s "
                "%7s  %s\n",
                int(nameW), clip(L->name, nameW).c_str(), int(opW),
                clip(L->op, opW).c_str(), (unsigned long long)L->cycles,
                100.0 * double(L->cycles) / total,
                (unsigned long long)L->exclusiveCycles,
                (unsigned long long)L->macs, 100.0 * L->macUtilisation,
                (unsigned long long)(L->dramBytesRead + L->dramBytesWritten),
                bound, ratio, limit);
  }
}

/// Compares `out` with the reference `ref` (equal shapes checked by the
/// caller): |out - ref| <= atol + rtol * |ref| everywhere, NaN matching NaN.
/// Prints an error naming `name` on a mismatch, else adds a line to `checks`.
bool matchesReference(const std::string &name, const Tensor &out,
                      const Tensor &ref, double atol, double rtol,
                      std::vector<std::string> &checks) {
  char buf[256];
  double maxErr = 0;
  size_t worst = 0, bad = 0;
  for (size_t i = 0; i < out.data.size(); ++i) {
    double o = out.data[i], r = ref.data[i];
    bool bothNan = std::isnan(o) && std::isnan(r);
    double e = bothNan || o == r ? 0.0 : std::fabs(o - r);
    if (std::isnan(e))
      e = INFINITY;
    if (e > atol + rtol * std::fabs(r))
      ++bad;
    if (e > maxErr) {
      maxErr = e;
      worst = i;
    }
  }
  if (bad) {
    std::snprintf(buf, sizeof buf,
                  "output '%s' differs from the reference in %zu of %zu "
                  "elements (max abs error %g at flat index %zu: %g vs %g)",
                  name.c_str(), bad, out.data.size(), maxErr, worst,
                  double(out.data[worst]), double(ref.data[worst]));
    std::cerr << "accel-run: error: " << buf << "\n";
    return false;
  }
  std::snprintf(buf, sizeof buf,
                "  %s matches the reference (max abs error %g)", name.c_str(),
                maxErr);
  checks.push_back(buf);
  return true;
}

//===----------------------------------------------------------------------===//
// --stream
//===----------------------------------------------------------------------===//

struct StreamArgs {
  std::vector<std::pair<std::string, std::string>> inputs, expects, states;
  std::string outDir;
  double atol = 1e-4, rtol = 1e-4;
  bool strict = false, quiet = false;
  unsigned dataLanes = 0;
};

/// "a.npy,b.npy" -> {"a.npy", "b.npy"}; an empty entry is an error.
bool splitFiles(const std::string &what, const std::string &list,
                std::vector<std::string> &files, std::string &err) {
  files.clear();
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string f = list.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    if (f.empty()) {
      err = what + ": empty file name in '" + list + "'";
      return false;
    }
    files.push_back(f);
    if (comma == std::string::npos)
      return true;
    start = comma + 1;
  }
}

const Symbol *findSymbol(const Program &prog, const std::string &name,
                         bool input) {
  for (const Symbol &s : prog.symbols)
    if (s.isInput == input && s.name == name)
      return &s;
  return nullptr;
}

std::string symbolNames(const Program &prog, bool input) {
  std::string r;
  for (const Symbol &s : prog.symbols)
    if (s.isInput == input)
      r += (r.empty() ? "" : ", ") + s.name;
  return r.empty() ? "none" : r;
}

/// The chunks of every input: `chunks[name][k]` (one entry: the same for
/// every chunk). Returns the chunk count, 0 on error.
size_t readStreamInputs(const StreamArgs &a,
                        std::map<std::string, std::vector<Tensor>> &chunks,
                        std::string &err) {
  size_t count = 1;
  std::string countFrom;
  for (auto &[name, list] : a.inputs) {
    if (chunks.count(name)) {
      err = "input '" + name + "' given twice";
      return 0;
    }
    std::vector<std::string> files;
    if (!splitFiles("input '" + name + "'", list, files, err))
      return 0;
    if (files.size() > 1) {
      if (!countFrom.empty() && files.size() != count) {
        err = "streamed inputs have different chunk counts: '" + countFrom +
              "' has " + std::to_string(count) + " files, '" + name + "' has " +
              std::to_string(files.size());
        return 0;
      }
      count = files.size();
      countFrom = name;
    }
    std::vector<Tensor> &ts = chunks[name];
    for (const std::string &f : files) {
      ts.emplace_back();
      if (!readTensorFile(f, ts.back(), err)) {
        err = "input '" + name + "': " + err;
        return 0;
      }
    }
  }
  return count;
}

/// Checks the --state pairs against the program and the inputs; a state
/// input without a file starts from zeros.
bool checkStates(const Program &prog, const StreamArgs &a,
                 std::map<std::string, std::vector<Tensor>> &chunks,
                 std::string &err) {
  std::map<std::string, std::string> seen;
  for (auto &[in, out] : a.states) {
    std::string pair = "--state " + in + "=" + out;
    if (!seen.emplace(in, out).second) {
      err = pair + ": input '" + in + "' is already the state of output '" +
            seen[in] + "'";
      return false;
    }
    const Symbol *si = findSymbol(prog, in, true);
    if (!si) {
      err = pair + ": '" + in + "' is not an input of the program (inputs: " +
            symbolNames(prog, true) + ")";
      return false;
    }
    const Symbol *so = findSymbol(prog, out, false);
    if (!so) {
      err = pair + ": '" + out + "' is not an output of the program " +
            "(outputs: " + symbolNames(prog, false) + ")";
      return false;
    }
    if (si->shape != so->shape) {
      err = pair + ": input '" + in + "' has shape " +
            shapeToString(si->shape) + " but output '" + out + "' has shape " +
            shapeToString(so->shape);
      return false;
    }
    auto given = chunks.find(in);
    if (given != chunks.end() && given->second.size() > 1) {
      err = pair + ": the state input '" + in + "' is given " +
            std::to_string(given->second.size()) +
            " files; it takes one, the state before the first chunk";
      return false;
    }
    if (given == chunks.end()) {
      Tensor zeros;
      zeros.shape = si->shape;
      zeros.data.assign(si->numElements(), 0.0f);
      chunks[in].push_back(std::move(zeros));
    }
  }
  return true;
}

/// Totals over the chunks, and each chunk's cycles: DIR/stats.json.
std::string streamStatsJson(const std::vector<SimStats> &all) {
  uint64_t cycles = 0, macs = 0, rd = 0, wr = 0, hazards = 0;
  double us = 0, pj = 0, wall = 0;
  std::string perChunk;
  for (const SimStats &st : all) {
    cycles += st.cycles;
    macs += st.macs;
    rd += st.dramBytesRead;
    wr += st.dramBytesWritten;
    hazards += st.hazardCount;
    us += st.timeUs;
    pj += st.energyTotalPj;
    wall += st.wallSeconds;
    perChunk += (perChunk.empty() ? "" : ", ") + std::to_string(st.cycles);
  }
  char buf[1024];
  std::snprintf(
      buf, sizeof buf,
      "{\n  \"chunks\": %zu,\n  \"cycles\": %llu,\n"
      "  \"time_us\": %.6f,\n  \"macs\": %llu,\n"
      "  \"dram_bytes_read\": %llu,\n  \"dram_bytes_written\": %llu,\n"
      "  \"energy_total_pj\": %.3f,\n  \"hazards\": %llu,\n"
      "  \"wall_seconds\": %.6f,\n  \"chunk_cycles\": [",
      all.size(), (unsigned long long)cycles, us, (unsigned long long)macs,
      (unsigned long long)rd, (unsigned long long)wr, pj,
      (unsigned long long)hazards, wall);
  return std::string(buf) + perChunk + "]\n}\n";
}

bool writeText(const std::string &path, const std::string &text,
               std::string &err) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close(); // a full disk shows only when the buffer goes out
  if (!f) {
    err = path + ": write error";
    return false;
  }
  return true;
}

int runStream(const Program &prog, const HardwareDesc &hw,
              const StreamArgs &a) {
  std::string err;
  std::map<std::string, std::vector<Tensor>> chunks;
  size_t count = readStreamInputs(a, chunks, err);
  if (!count || !checkStates(prog, a, chunks, err))
    return fail(err);
  // References per chunk: as many files as chunks.
  std::map<std::string, std::vector<Tensor>> expected;
  for (auto &[name, list] : a.expects) {
    if (expected.count(name))
      return fail("--expect '" + name + "' given twice");
    if (!findSymbol(prog, name, false))
      return fail("--expect names '" + name + "', which is not an output");
    std::vector<std::string> files;
    if (!splitFiles("--expect '" + name + "'", list, files, err))
      return fail(err);
    if (files.size() != count)
      return fail("--expect '" + name + "' gives " +
                  std::to_string(files.size()) + " files for " +
                  std::to_string(count) + " chunks");
    for (const std::string &f : files) {
      expected[name].emplace_back();
      if (!readTensorFile(f, expected[name].back(), err))
        return fail("expected '" + name + "': " + err);
    }
  }
  if (!a.outDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.outDir, ec);
    if (ec)
      return fail(a.outDir + ": cannot create directory: " + ec.message());
  }

  SimOptions opts;
  opts.hazardsAreErrors = a.strict;
  opts.dataLanes = a.dataLanes;
  ProgressLine progress;
  if (!a.quiet)
    progress.attach(opts);
  std::vector<SimStats> all;
  std::vector<std::string> checks;
  std::map<std::string, Tensor> outputs;
  bool mismatch = false;
  for (size_t k = 0; k < count; ++k) {
    std::map<std::string, Tensor> inputs;
    for (auto &[name, ts] : chunks)
      inputs[name] = ts.size() > 1 ? ts[k] : ts[0];
    if (k > 0)
      for (auto &[in, out] : a.states)
        inputs[in] = outputs.at(out);
    std::map<std::string, Tensor> next;
    all.emplace_back();
    bool ran = simulate(prog, hw, inputs, opts, next, all.back(), err);
    progress.clear();
    if (!ran)
      return fail("chunk " + std::to_string(k) + ": " + err);
    outputs = std::move(next);
    std::string suffix = "." + std::to_string(k);
    for (auto &[name, refs] : expected) {
      const Tensor &out = outputs.at(name), &ref = refs[k];
      std::string label = name + suffix;
      if (out.shape != ref.shape) {
        mismatch = true;
        std::cerr << "accel-run: error: output '" << label << "' has shape "
                  << shapeToString(out.shape) << " but the reference has shape "
                  << shapeToString(ref.shape) << "\n";
        continue;
      }
      mismatch |= !matchesReference(label, out, ref, a.atol, a.rtol, checks);
    }
    if (a.outDir.empty())
      continue;
    if (!checkOutputValues(outputs, err))
      return fail("chunk " + std::to_string(k) + ": " + err);
    for (auto &[name, t] : outputs)
      if (!writeNpy(a.outDir + "/" + fileNameFor(name) + suffix + ".npy", t,
                    err))
        return fail(err);
    if (!writeText(a.outDir + "/stats" + suffix + ".json",
                   statsToJson(all.back()), err))
      return fail(err);
  }
  if (!a.outDir.empty() &&
      !writeText(a.outDir + "/stats.json", streamStatsJson(all), err))
    return fail(err);

  for (const SimStats &st : all)
    for (auto &h : st.hazards)
      std::cerr << "accel-run: warning: " << h << "\n";
  if (a.quiet)
    return mismatch ? 1 : 0;
  std::printf("hardware: %s (%ux%u clusters x %u PEs x %u MAC lanes)\n",
              hw.name.c_str(), hw.rows, hw.cols, hw.pesPerCluster, hw.macLanes);
  std::string states;
  for (auto &[in, out] : a.states)
    states += (states.empty() ? "" : ", ") + in + " <- " + out;
  std::printf("stream: %zu chunks, states: %s\n", count,
              states.empty() ? "none" : states.c_str());
  std::printf("outputs:\n");
  for (auto &[name, t] : outputs)
    std::printf("  %s %s%s\n", name.c_str(), shapeToString(t.shape).c_str(),
                a.outDir.empty()
                    ? ""
                    : (" -> " + a.outDir + "/" + fileNameFor(name) + ".<k>.npy")
                          .c_str());
  uint64_t cycles = 0, macs = 0, rd = 0, wr = 0;
  double pj = 0, wall = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    std::printf("  chunk %zu: cycles %llu\n", k,
                (unsigned long long)all[k].cycles);
    cycles += all[k].cycles;
    macs += all[k].macs;
    rd += all[k].dramBytesRead;
    wr += all[k].dramBytesWritten;
    pj += all[k].energyTotalPj;
    wall += all[k].wallSeconds;
  }
  std::printf("cycles: %llu in total, %.0f per chunk (%.3f us per chunk at "
              "%.3g GHz)\n",
              (unsigned long long)cycles, double(cycles) / all.size(),
              double(cycles) / all.size() / (hw.clockGHz * 1000), hw.clockGHz);
  std::printf("MACs: %llu\n", (unsigned long long)macs);
  std::printf("DRAM: %s read, %s written\n", formatBytes(rd).c_str(),
              formatBytes(wr).c_str());
  std::printf("energy: %.3f uJ\n", pj * 1e-6);
  std::printf("simulated in %.3f s\n", wall);
  if (!checks.empty())
    std::printf("reference checks:\n");
  for (auto &c : checks)
    std::printf("%s\n", c.c_str());
  return mismatch ? 1 : 0;
}

/// The --expect and --input files of a run: read on a thread of their own
/// while the binary is read and checked (docs/simulator.md, "Eleventh
/// round"); `err` is the first failure in the order one reading after the
/// other finds it ("" when every file was read).
struct TensorFiles {
  std::map<std::string, Tensor> inputs, expected;
  std::string err;
};
using FileArgs = std::vector<std::pair<std::string, std::string>>;
/// Reads the NAME=FILE pairs `args` into `out`: "" or the first failure, a
/// name given twice ("FLAG 'NAME' given twice") or a file that cannot be
/// read ("WHAT 'NAME': why").
std::string readNamedTensors(const FileArgs &args, const std::string &flag,
                             const std::string &what,
                             std::map<std::string, Tensor> &out) {
  std::string err;
  for (auto &[name, file] : args) {
    if (out.count(name))
      return flag + " '" + name + "' given twice";
    Tensor t;
    if (!readTensorFile(file, t, err))
      return what + " '" + name + "': " + err;
    out[name] = std::move(t);
  }
  return "";
}
TensorFiles readTensorFiles(const FileArgs &expectArgs,
                            const FileArgs &inputArgs) {
  TensorFiles r;
  r.err = readNamedTensors(expectArgs, "--expect", "expected", r.expected);
  if (r.err.empty())
    r.err = readNamedTensors(inputArgs, "input", "input", r.inputs);
  return r;
}

int runMain(int argc, char **argv) {
  HostTimings host;
  bool hostTimings = false;
  unsigned dataLanes = 0;
  std::string binaryPath, hwPath, outDir, tracePath, reportDir;
  std::vector<std::pair<std::string, std::string>> inputArgs, expectArgs;
  std::vector<std::pair<std::string, uint64_t>> arrivalArgs;
  double atol = 1e-4, rtol = 1e-4;
  bool validate = true, strict = false, quiet = false, perLayer = false,
       gating = false;
  bool stream = false;
  std::vector<std::pair<std::string, std::string>> stateArgs;

  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string value;
    bool hasInlineValue = false;
    if (a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        hasInlineValue = true;
      }
    }
    auto need = [&](std::string &dst) {
      if (hasInlineValue) {
        dst = value;
        return true;
      }
      if (i + 1 >= argc)
        return false;
      dst = argv[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--hw") {
      if (!need(hwPath))
        return fail("--hw needs a file");
    } else if (a == "--input" || a == "-i") {
      std::string spec;
      if (!need(spec))
        return fail("--input needs NAME=FILE");
      size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        return fail("--input expects NAME=FILE, got '" + spec + "'");
      inputArgs.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    } else if (a == "--expect") {
      std::string spec;
      if (!need(spec))
        return fail("--expect needs NAME=FILE");
      size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        return fail("--expect expects NAME=FILE, got '" + spec + "'");
      expectArgs.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    } else if (a == "--atol" || a == "--rtol") {
      std::string v;
      if (!need(v))
        return fail(a + " needs a number");
      char *end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(d >= 0))
        return fail(a + " expects a non-negative number, got '" + v + "'");
      (a == "--atol" ? atol : rtol) = d;
    } else if (a == "--output-dir" || a == "-o") {
      if (!need(outDir) || outDir.empty())
        return fail("--output-dir needs a directory");
    } else if (a == "--trace") {
      if (!need(tracePath))
        return fail("--trace needs a file");
    } else if (a == "--report") {
      if (!need(reportDir))
        return fail("--report needs a directory");
    } else if (a == "--no-validate" && !hasInlineValue) {
      validate = false;
    } else if (a == "--strict-hazards" && !hasInlineValue) {
      strict = true;
    } else if (a == "--power-gating" && !hasInlineValue) {
      gating = true;
    } else if (a == "--quiet" && !hasInlineValue) {
      quiet = true;
    } else if (a == "--host-timings" && !hasInlineValue) {
      hostTimings = true;
    } else if (a == "--data-lanes") {
      std::string v;
      if (!need(v))
        return fail("--data-lanes needs a number");
      char *end = nullptr;
      unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > SimOptions::kMaxDataLanes)
        return fail("--data-lanes expects a number from 1 to " +
                    std::to_string(SimOptions::kMaxDataLanes) + ", got '" + v +
                    "'");
      dataLanes = unsigned(n);
    } else if (a == "--per-layer" && !hasInlineValue) {
      perLayer = true;
    } else if (a == "--stream" && !hasInlineValue) {
      stream = true;
    } else if (a == "--arrival") {
      std::string spec;
      if (!need(spec))
        return fail("--arrival needs NAME=CYCLES");
      size_t eq = spec.find('=');
      char *end = nullptr;
      errno = 0;
      const char *num =
          eq == std::string::npos ? spec.c_str() : spec.c_str() + eq + 1;
      unsigned long long cyc = std::strtoull(num, &end, 10);
      // Digits only (strtoull would take "-3000" as 2^64 - 3000), and at
      // most 2^62 so that arrival + cycles cannot wrap around.
      if (eq == std::string::npos || eq == 0 ||
          !std::isdigit(static_cast<unsigned char>(*num)) || *end ||
          errno == ERANGE || cyc > (1ull << 62))
        return fail("--arrival expects NAME=CYCLES (an input or a network "
                    "and a whole number of cycles up to 2^62), got '" +
                    spec + "'");
      std::string name = spec.substr(0, eq);
      for (const auto &given : arrivalArgs)
        if (given.first == name)
          return fail("--arrival " + name + " is given twice");
      arrivalArgs.emplace_back(name, uint64_t(cyc));
    } else if (a == "--state") {
      std::string spec;
      if (!need(spec))
        return fail("--state needs IN=OUT");
      size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        return fail("--state expects IN=OUT (an input and the output that "
                    "feeds it), got '" +
                    spec + "'");
      stateArgs.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << kUsage;
      return fail("unknown option '" + std::string(argv[i]) + "'");
    } else if (binaryPath.empty()) {
      binaryPath = a;
    } else {
      return fail("more than one binary given ('" + binaryPath + "' and '" + a +
                  "')");
    }
  }
  if (binaryPath.empty()) {
    std::cerr << kUsage;
    return fail("no binary given");
  }
  if (!stateArgs.empty() && !stream)
    return fail("--state needs --stream");
  const char *oneRunOnly = !tracePath.empty()     ? "--trace"
                           : perLayer             ? "--per-layer"
                           : !reportDir.empty()   ? "--report"
                           : !arrivalArgs.empty() ? "--arrival"
                           : hostTimings          ? "--host-timings"
                                                  : nullptr;
  if (stream && oneRunOnly)
    return fail(std::string(oneRunOnly) +
                " is not supported with --stream (run one chunk without "
                "--stream for it)");
  if (outDir.empty())
    outDir = reportDir;

  HardwareDesc hw = defaultHardware();
  std::string err;
  if (!hwPath.empty() && !loadHardwareDesc(hwPath, hw, err))
    return fail(err);

  host.mark("hardware");
  std::future<TensorFiles> files;
  if (!stream)
    files = std::async(std::launch::async, readTensorFiles,
                       std::cref(expectArgs), std::cref(inputArgs));
  // Never destroyed (like clang's -disable-free): the process ends right
  // after the run, and freeing the decoded commands one vector at a time
  // took 1.7 % of a MobileNetV3-Small run. The global pointer keeps it
  // reachable for LeakSanitizer.
  static Program *const decoded = new Program;
  Program &prog = *decoded;
  if (!readBinaryFile(binaryPath, prog, err))
    return fail(err); // err names the file
  if (std::string why = collidingOutputFiles(prog);
      !outDir.empty() && !why.empty())
    return fail(binaryPath + ": " + why);
  host.mark("read-binary");
  // The command streams are checked on another thread while the simulator
  // runs the commands checked so far (docs/simulator.md, "Eleventh round").
  // Every failure below waits for that check first: an invalid program
  // reports validateProgram's message, as when the check came first.
  auto invalid = [&](const std::string &msg) {
    return fail(binaryPath + ": invalid program for hardware '" + hw.name +
                "': " + msg);
  };
  std::optional<StreamedValidation> check;
  if (validate) {
    check.emplace(prog, hw);
    if (!check->start(err))
      return invalid(err);
  }
  auto failChecked = [&](const std::string &msg) {
    std::string why;
    if (check && !check->finish(why))
      return invalid(why);
    return fail(msg);
  };
  host.mark("validate");

  if (stream) {
    if (check && !check->finish(err))
      return invalid(err);
    StreamArgs sa;
    sa.inputs = inputArgs;
    sa.expects = expectArgs;
    sa.states = stateArgs;
    sa.outDir = outDir;
    sa.atol = atol;
    sa.rtol = rtol;
    sa.strict = strict;
    sa.quiet = quiet;
    sa.dataLanes = dataLanes;
    return runStream(prog, hw, sa);
  }

  TensorFiles read = files.get();
  if (!read.err.empty())
    return failChecked(read.err);
  std::map<std::string, Tensor> &inputs = read.inputs,
                                &expected = read.expected;

  host.mark("inputs");
  SimOptions opts;
  opts.tracePath = tracePath;
  opts.hazardsAreErrors = strict;
  opts.powerGating = gating;
  opts.dataLanes = dataLanes;
  if (check)
    opts.commandsChecked = check->gate();
  if (!inputArrivals(prog, arrivalArgs, opts.inputArrival, err))
    return failChecked(err);
  if (!reportDir.empty()) { // docs/simulator.md "HTML report"
    std::error_code ec;
    std::filesystem::create_directories(reportDir, ec);
    if (ec)
      return failChecked(reportDir +
                         ": cannot create directory: " + ec.message());
    opts.timeline = true;
    if (opts.tracePath.empty())
      opts.tracePath = reportDir + "/trace.json";
  }
  ProgressLine progress;
  if (!quiet)
    progress.attach(opts);
  std::map<std::string, Tensor> outputs;
  SimStats stats;
  bool ran = simulate(prog, hw, inputs, opts, outputs, stats, err);
  progress.clear();
  if (!ran)
    return failChecked(err);
  if (check && !check->finish(err))
    return invalid(err);
  host.mark("simulate");
  if (!reportDir.empty() &&
      !writeReport(reportDir, prog, hw, stats, binaryPath, opts.tracePath, err))
    return fail(err);

  std::vector<std::pair<std::string, std::string>> written;
  if (!outDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec)
      return fail(outDir + ": cannot create directory: " + ec.message());
    if (!checkOutputValues(outputs, err))
      return fail(err);
    for (auto &[name, t] : outputs) {
      std::string path = outDir + "/" + fileNameFor(name) + ".npy";
      if (!writeNpy(path, t, err))
        return fail(err);
      written.emplace_back(name, path);
    }
    if (!writeText(outDir + "/stats.json", statsToJson(stats), err))
      return fail(err);
  }

  host.mark("outputs");
  if (hostTimings)
    std::cerr << host.summary() << "\n";

  // Comparison with the references.
  std::vector<std::string> checks;
  bool mismatch = false;
  for (auto &[name, ref] : expected) {
    auto it = outputs.find(name);
    if (it == outputs.end())
      return fail("--expect names '" + name + "', which is not an output");
    const Tensor &out = it->second;
    if (out.shape != ref.shape) {
      // Shapes, not only element counts: a 3x2 result against a 2x3
      // reference is a transposed or mis-laid-out output, not a match.
      mismatch = true;
      std::cerr << "accel-run: error: output '" << name << "' has shape "
                << shapeToString(out.shape) << " but the reference has shape "
                << shapeToString(ref.shape) << "\n";
      continue;
    }
    mismatch |= !matchesReference(name, out, ref, atol, rtol, checks);
  }

  for (auto &h : stats.hazards)
    std::cerr << "accel-run: warning: " << h << "\n";
  if (stats.hazardCount > stats.hazards.size())
    std::cerr << "accel-run: warning: "
              << stats.hazardCount - stats.hazards.size() << " more hazards\n";
  if (quiet) {
    if (perLayer)
      printLayerTable(prog, stats);
    return mismatch ? 1 : 0;
  }

  std::printf("hardware: %s (%ux%u clusters x %u PEs x %u MAC lanes)\n",
              hw.name.c_str(), hw.rows, hw.cols, hw.pesPerCluster, hw.macLanes);
  std::printf("outputs:\n");
  for (auto &[name, t] : outputs) {
    std::string where;
    for (auto &w : written)
      if (w.first == name)
        where = " -> " + w.second;
    std::printf("  %s %s%s\n", name.c_str(), shapeToString(t.shape).c_str(),
                where.c_str());
  }
  std::printf("cycles: %llu (%.3f us at %.3g GHz)\n",
              (unsigned long long)stats.cycles, stats.timeUs, hw.clockGHz);
  printIdealBound(stats);
  std::printf("MACs: %llu, MAC-array utilisation: %.2f %%\n",
              (unsigned long long)stats.macs, 100.0 * stats.macUtilisation);
  if (stats.skippedMacs || stats.balancedMacs)
    std::printf("sparsity: %llu MACs skipped (zero weights / activations), "
                "%llu moved by load balancing\n",
                (unsigned long long)stats.skippedMacs,
                (unsigned long long)stats.balancedMacs);
  if (stats.outputQueueAccesses)
    std::printf("output queue: %llu accesses, %llu drains (SFU results: "
                "%llu chained, %llu decoupled)\n",
                (unsigned long long)stats.outputQueueAccesses,
                (unsigned long long)stats.outputQueueDrains,
                (unsigned long long)stats.chainedResults,
                (unsigned long long)stats.decoupledResults);
  for (size_t i = 0; i < stats.clusters.size(); ++i) {
    const ClusterStats &c = stats.clusters[i];
    std::printf("  cluster (%u,%u): PE busy %.1f %%, MAC %.2f %%, DMA %s\n",
                c.row, c.col, 100.0 * c.peUtilisation, 100.0 * c.macUtilisation,
                formatBytes(c.dmaBytes).c_str());
  }
  for (size_t i = 0; i < stats.channels.size(); ++i)
    std::printf("  channel %zu: busy %.1f %%, %s (%s remote)\n", i,
                100.0 * stats.channels[i].utilisation,
                formatBytes(stats.channels[i].bytes).c_str(),
                formatBytes(stats.channels[i].remoteBytes).c_str());
  std::printf("DRAM: %s read, %s written (%s local, %s remote)\n",
              formatBytes(stats.dramBytesRead).c_str(),
              formatBytes(stats.dramBytesWritten).c_str(),
              formatBytes(stats.dramLocalBytes).c_str(),
              formatBytes(stats.dramRemoteBytes).c_str());
  if (stats.mesh.transfers || stats.mesh.signals)
    std::printf("mesh: %llu transfers, %llu signals, %s, %llu byte-hops, "
                "busiest link %.1f %%\n",
                (unsigned long long)stats.mesh.transfers,
                (unsigned long long)stats.mesh.signals,
                formatBytes(stats.mesh.bytes).c_str(),
                (unsigned long long)stats.mesh.byteHops,
                100.0 * stats.mesh.maxLinkUtilisation);
  std::printf("energy: %.3f uJ\n", stats.energyTotalPj * 1e-6);
  if (gating)
    std::printf("power gating: %llu cluster-cycles off, static energy %.3f "
                "uJ (%.3f uJ ungated)\n",
                (unsigned long long)stats.offClusterCycles,
                stats.energyStaticGatedPj * 1e-6,
                stats.energyStaticUngatedPj * 1e-6);
  if (stats.hazardCount)
    std::printf("hazards: %llu (see warnings)\n",
                (unsigned long long)stats.hazardCount);
  printNetworks(prog, hw, stats, opts.inputArrival);
  if (perLayer)
    printLayerTable(prog, stats);
  if (!reportDir.empty())
    std::printf("report: %s/index.html\n", reportDir.c_str());
  std::printf("simulated in %.3f s\n", stats.wallSeconds);
  if (!checks.empty())
    std::printf("reference checks:\n");
  for (auto &c : checks)
    std::printf("%s\n", c.c_str());
  return mismatch ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return runMain(argc, argv);
  } catch (const std::exception &e) {
    return fail(std::string("internal error: ") + e.what());
  } catch (...) {
    return fail("internal error");
  }
}
