//===- Report.cpp - HTML report of a simulation ---------------------------===//
//
// The page: summary, per-layer table, plots (Plots.cpp). docs/simulator.md
// "HTML report" describes each part.
//
//===----------------------------------------------------------------------===//
#include "accel/Report/Report.h"
#include "Plots.h"
#include "Svg.h"
#include "accel/Support/Format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

namespace accel {

using namespace report;

namespace {

const char *kStyle = R"(<style>
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
#layers td, #layers th, #summary th { white-space: nowrap; }
#layers td:nth-child(2) { white-space: normal; overflow-wrap: anywhere;
                          min-width: 14em; }
.bar { display: inline-block; height: 8px; background: #1f77b4;
       margin-left: 6px; }
.swatch { display: inline-block; width: 10px; height: 10px;
          margin-right: 4px; }
.legend span.item { margin-right: 16px; }
.note { color: #555; font-size: 13px; max-width: 900px; }
svg text { font: 11px sans-serif; fill: #333; }
svg .label { font-size: 12px; }
svg .grid { stroke: #e6e6e6; } svg .axis { stroke: #666; }
svg .roof { stroke: #222; stroke-width: 2; fill: none; }
svg .busy { fill: #9ecae1; } svg .macs { fill: #08519c; }
</style>
)";

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string pct(double fraction) { return fixed(100 * fraction, 2) + " %"; }

std::string swatch(const std::string &colour) {
  return "<span class=\"swatch\" style=\"background:" + colour + "\"></span>";
}

std::string row(const char *label, const std::string &valueHtml) {
  return std::string("<tr><th>") + label + "</th><td>" + valueHtml +
         "</td></tr>\n";
}

std::string hardwareText(const HardwareDesc &hw) {
  return escapeHtml(hw.name) + " (" + std::to_string(hw.rows) + "x" +
         std::to_string(hw.cols) + " clusters x " +
         std::to_string(hw.pesPerCluster) + " PEs x " +
         std::to_string(hw.macLanes) + " MAC lanes, " + num(hw.clockGHz, 4) +
         " GHz)";
}

std::string energyText(const SimStats &s) {
  auto uj = [](double pj) { return fixed(pj * 1e-6, 3); };
  return uj(s.energyTotalPj) + " &micro;J (MAC " + uj(s.energyMacPj) +
         ", DRAM " + uj(s.energyDramPj) + ", storage " + uj(s.energyStoragePj) +
         ", static " + uj(s.energyStaticPj) + ", mesh " + uj(s.energyMeshPj) +
         ")";
}

std::string boundText(const SimStats &s) {
  if (!(s.idealBoundCycles > 0))
    return "0 cycles (no MACs and no bytes to move)";
  return fixed(s.idealBoundCycles, 0) +
         " cycles; cycles / bound = " + fixed(s.idealRatio, 2) + "x";
}

double meanPeBusy(const SimStats &s) {
  double sum = 0;
  for (const ClusterStats &c : s.clusters)
    sum += c.peUtilisation;
  return s.clusters.empty() ? 0 : sum / double(s.clusters.size());
}

std::string trafficRows(const SimStats &s) {
  std::string t =
      row("DRAM", formatBytes(s.dramBytesRead) + " read, " +
                      formatBytes(s.dramBytesWritten) + " written (" +
                      formatBytes(s.dramLocalBytes) + " local, " +
                      formatBytes(s.dramRemoteBytes) + " remote)");
  t +=
      row("storage units", formatBytes(s.storageBytesRead) + " read, " +
                               formatBytes(s.storageBytesWritten) + " written");
  if (s.mesh.transfers || s.mesh.signals)
    t += row("mesh", formatBytes(s.mesh.bytes) + " in " +
                         std::to_string(s.mesh.transfers) + " transfers, " +
                         std::to_string(s.mesh.signals) + " signals, " +
                         std::to_string(s.mesh.byteHops) + " byte-hops");
  return t;
}

std::string summarySection(const HardwareDesc &hw, const SimStats &s,
                           const std::string &binary) {
  std::string t = "<h2>Summary</h2>\n<table id=\"summary\">\n";
  t += row("binary", escapeHtml(binary));
  t += row("hardware", hardwareText(hw));
  t += row("cycles",
           std::to_string(s.cycles) + " (" + fixed(s.timeUs, 3) + " &micro;s)");
  t += row("ideal bound", boundText(s));
  t += row("MAC utilisation",
           pct(s.macUtilisation) + " (" + std::to_string(s.macs) + " MACs)");
  t += row("PE arrays busy", pct(meanPeBusy(s)) + " (mean over clusters)");
  t += row("energy", energyText(s));
  t += trafficRows(s);
  if (s.hazardCount)
    t += row("hazards", std::to_string(s.hazardCount) +
                            " (stats.json <code>hazards</code>)");
  t += row("files", "<a href=\"stats.json\">stats.json</a>, "
                    "<a href=\"trace.json\">trace.json</a> (open it in "
                    "Perfetto or chrome://tracing)");
  t += row("simulated in", fixed(s.wallSeconds, 3) + " s");
  return t + "</table>\n";
}

std::string cell(const std::string &html) {
  return "<td class=\"n\">" + html + "</td>";
}

std::string limitText(const LayerStats &L) {
  if (L.limit == "none" || !L.cycles)
    return "&ndash;";
  return swatch(unitColour(L.limit)) + escapeHtml(L.limit) + " " +
         fixed(100 * L.limitOccupancy, 0) + " %";
}

std::string layerRow(const std::string &index, const LayerStats &L,
                     uint64_t total) {
  const double share = double(L.cycles) / double(std::max<uint64_t>(total, 1));
  std::string fused; // the op cell's tooltip
  for (const std::string &f : L.fused)
    fused += (fused.empty() ? " title=\"fused: " : ", ") + escapeHtml(f);
  if (!fused.empty())
    fused += "\"";
  std::string r = "<tr><td class=\"n\">" + index + "</td><td>" +
                  escapeHtml(L.name) + "</td><td" + fused + ">" +
                  escapeHtml(L.op) + "</td>";
  r += cell(std::to_string(L.macs)) + cell(std::to_string(L.cycles));
  r += cell(fixed(100 * share, 1) + " %<span class=\"bar\" style=\"width:" +
            fixed(std::min(share, 1.0) * 80, 1) + "px\"></span>");
  r += cell(std::to_string(L.exclusiveCycles));
  r += cell(pct(L.macUtilisation)) +
       cell(std::to_string(L.dramBytesRead + L.dramBytesWritten));
  const bool bounded = L.rooflineBound > 0;
  r +=
      cell(bounded ? fixed(L.rooflineBound, 0) + " " + L.boundKind : "&ndash;");
  r += cell(bounded ? fixed(L.boundRatio, 2) + "x" : "&ndash;");
  return r + "<td>" + limitText(L) + "</td></tr>\n";
}

std::string layerSection(const SimStats &s) {
  std::string t = "<h2>Layers</h2>\n";
  if (s.layers.empty())
    t += "<p class=\"note\">The program has no layer table (written by "
         "hand, or compiled without attribution).</p>\n";
  t += "<p class=\"note\">In program order. Layers overlap (the next "
       "layer's loads start while one computes), so the shares can add up "
       "to more than 100 %; exclusive: the cycles of a layer's span no "
       "earlier layer covers (they add up to the total). Bound: the layer's "
       "roofline bound in cycles "
       "(compute or memory); ratio: cycles / bound; limit: the busiest unit "
       "and its occupancy over the layer's cycles.</p>\n";
  t += "<table id=\"layers\">\n<thead><tr><th>#</th><th>layer</th><th>op</th>"
       "<th>MACs</th><th>cycles</th><th>share</th><th>exclusive</th>"
       "<th>MAC util</th>"
       "<th>DRAM bytes</th><th>bound</th><th>ratio</th><th>limit</th></tr>"
       "</thead>\n<tbody>\n";
  for (const LayerStats &L : s.layers)
    t += layerRow(std::to_string(L.id), L, s.cycles);
  if (s.unattributed.commands)
    t += layerRow("&ndash;", s.unattributed, s.cycles);
  return t + "</tbody>\n</table>\n";
}

std::string rooflineSection(const HardwareDesc &hw, const SimStats &s) {
  size_t omitted = 0;
  std::string plot = rooflinePlot(hw, s, omitted);
  std::string t = "<h2>Roofline</h2>\n<p class=\"note\">One point per layer: "
                  "its model MACs per compulsory DRAM byte against model MACs "
                  "per cycle of its span. A point's distance below the roof "
                  "is its ratio to the bound. Colour: the limiting unit; "
                  "hover a point for the layer.";
  if (omitted)
    t += " " + std::to_string(omitted) +
         " layers without MACs or compulsory bytes are not shown.";
  t += "</p>\n<p class=\"legend\">";
  for (const char *unit : {"pe", "dma", "sfu", "mesh"})
    t += std::string("<span class=\"item\">") + swatch(unitColour(unit)) +
         unit + "</span>";
  return t + "</p>\n" + plot;
}

std::string utilisationSection(const HardwareDesc &hw, const SimStats &s) {
  std::string t = "<h2>Utilisation over time</h2>\n";
  if (s.timeline.peBusy.empty())
    return t + "<p class=\"note\">No timeline in these statistics.</p>\n";
  t += "<p class=\"note\">One strip per cluster, bins of " +
       std::to_string(s.timeline.binCycles) +
       " cycles, each from 0 to 100 %. Light: PE array busy; dark: MAC "
       "utilisation. After each cluster: its MAC utilisation over the "
       "run.</p>\n";
  return t + utilisationPlot(hw, s);
}

/// When each network ran, where, and what it did; then the Gantt chart.
std::string networksSection(const Program &prog, const HardwareDesc &hw,
                            const SimStats &s, const Networks &nets) {
  std::string t = "<h2>Networks on clusters</h2>\n<table>\n<tr><th></th>"
                  "<th>network</th><th>cycles</th><th>clusters</th>"
                  "<th>MACs</th><th>MAC util.</th><th>DRAM bytes</th>"
                  "<th>dynamic energy</th></tr>\n";
  std::vector<NetworkSummary> sums = networkSummaries(prog, hw, s);
  for (size_t i = 0; i < sums.size(); ++i) {
    const NetworkSummary &n = sums[i];
    t += "<tr><td>" + swatch(paletteColour(i)) + "</td><td>" +
         escapeHtml(n.name) + "</td><td>" + std::to_string(n.first) + " to " +
         std::to_string(n.last) + "</td><td>" +
         std::to_string(n.clusters.size()) + "</td><td>" +
         std::to_string(n.macs) + "</td><td>" + pct(n.macUtilisation) +
         "</td><td>" + std::to_string(n.dramBytes) + "</td><td>" +
         fixed(n.dynamicPj * 1e-6, 3) + " uJ</td></tr>\n";
  }
  return t +
         "</table>\n<p class=\"note\">One row per cluster; a bar from "
         "the first to the last cycle a network's commands were active "
         "there.</p>\n" +
         ganttPlot(s, nets);
}

bool writeText(const std::string &path, const std::string &text,
               std::string &err) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close(); // a full disk shows only when the buffer goes out
  if (!out)
    err = path + ": write error";
  return bool(out);
}

} // namespace

std::string reportHtml(const Program &prog, const HardwareDesc &hw,
                       const SimStats &stats, const std::string &binary) {
  const std::string title = "accel-run report: " + escapeHtml(binary);
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
                  "charset=\"utf-8\">\n<title>" +
                  title + "</title>\n" + kStyle + "</head>\n<body>\n<h1>" +
                  title + "</h1>\n";
  h += summarySection(hw, stats, binary);
  h += layerSection(stats);
  h += rooflineSection(hw, stats);
  h += utilisationSection(hw, stats);
  Networks nets = findNetworks(prog);
  if (!nets.names.empty())
    h += networksSection(prog, hw, stats, nets);
  return h + "</body>\n</html>\n";
}

bool writeReport(const std::string &dir, const Program &prog,
                 const HardwareDesc &hw, const SimStats &stats,
                 const std::string &binary, const std::string &tracePath,
                 std::string &err) {
  namespace fs = std::filesystem;
  const std::string trace = dir + "/trace.json";
  std::error_code ec;
  if (!fs::equivalent(tracePath, trace, ec))
    fs::copy_file(tracePath, trace, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    err = trace + ": cannot copy the trace: " + ec.message();
    return false;
  }
  return writeText(dir + "/stats.json", statsToJson(stats), err) &&
         writeText(dir + "/index.html", reportHtml(prog, hw, stats, binary),
                   err);
}

} // namespace accel
