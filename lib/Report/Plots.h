//===- Plots.h - The report's SVG plots (private to AccelReport) ----------===//
//
// Each function returns one inline <svg> element (docs/simulator.md "HTML
// report" says what each shows).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_REPORT_PLOTS_H
#define ACCEL_LIB_REPORT_PLOTS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Report/Networks.h"
#include "accel/Sim/Simulator.h"

#include <string>
#include <vector>

namespace accel {
namespace report {

/// Colour of a limiting unit ("pe", "dma", "sfu", "mesh", "none").
const char *unitColour(const std::string &unit);

/// One point per layer with MACs: model MACs per compulsory byte against
/// model MACs per cycle, under the machine's roof. `omitted` counts the
/// layers without MACs or bytes (no point on log axes).
std::string rooflinePlot(const HardwareDesc &hw, const SimStats &s,
                         size_t &omitted);
/// One strip per cluster: PE-array busy and MAC utilisation per time bin.
std::string utilisationPlot(const HardwareDesc &hw, const SimStats &s);
/// One row per cluster, a bar per network from its first to its last cycle
/// there.
std::string ganttPlot(const SimStats &s, const Networks &nets);

} // namespace report
} // namespace accel

#endif
