//===- Report.h - HTML report of a simulation ---------------*- C++ -*-===//
//
// `accel-run --report DIR` (docs/simulator.md "HTML report"): DIR/index.html
// with the summary, the per-layer table, a roofline plot, PE utilisation over
// time per cluster and, for a linked multi-network program, the networks on
// the clusters over time; next to it DIR/stats.json and DIR/trace.json. The
// page is one self-contained file (inline CSS and SVG, no script, nothing
// fetched), so it works from a local file, offline.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_REPORT_REPORT_H
#define ACCEL_REPORT_REPORT_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Program.h"

#include <string>

namespace accel {

/// The page. `stats` comes from a run with SimOptions::timeline (the plots
/// over time are empty without it); `binary` names the program in the
/// title. Every name from the program or the hardware is escaped.
std::string reportHtml(const Program &prog, const HardwareDesc &hw,
                       const SimStats &stats, const std::string &binary);

/// Writes `dir`/index.html and `dir`/stats.json, and copies the trace at
/// `tracePath` to `dir`/trace.json unless it is that file. `dir` must exist.
bool writeReport(const std::string &dir, const Program &prog,
                 const HardwareDesc &hw, const SimStats &stats,
                 const std::string &binary, const std::string &tracePath,
                 std::string &err);

} // namespace accel

#endif
