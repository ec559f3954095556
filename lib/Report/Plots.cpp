//===- Plots.cpp - The report's SVG plots ---------------------------------===//
#include "Plots.h"
#include "Svg.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace accel {
namespace report {

namespace {

/// Width of the plots over time and their left margin (the cluster labels).
constexpr double kLabelWidth = 110, kTimeWidth = 900;

std::string clusterLabel(const SimStats &s, size_t c) {
  if (c >= s.clusters.size())
    return "cluster " + std::to_string(c);
  return "(" + std::to_string(s.clusters[c].row) + "," +
         std::to_string(s.clusters[c].col) + ")";
}

/// The time axis of the plots over time, ticks along the bottom at `y0`
/// with grid lines up to `top`.
Axis timeAxis(Svg &svg, const SimStats &s, double top, double y0) {
  Axis x{0, double(std::max<uint64_t>(s.cycles, 1)), kLabelWidth,
         kTimeWidth - 20};
  svg.xTicks(x, linearTicks(x.lo, x.hi, 8), y0, top, si);
  svg.text((x.from + x.to) / 2, y0 + 34, "cycle", "middle", "label");
  return x;
}

/// A point's label: the end of the layer's name (exporters' names are
/// paths, "/features.6/block.1/Conv"), a leading "..." marking a cut.
std::string pointLabel(const std::string &name) {
  constexpr size_t kWidth = 24;
  if (name.size() <= kWidth)
    return name;
  return "..." + name.substr(name.size() - (kWidth - 3));
}

/// Pixel box of a label or a point, and an estimate of a label's width
/// (11 px sans-serif).
struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box &o) const {
    return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
  }
};
double labelWidth(const std::string &s) { return 6.2 * double(s.size()); }

struct RooflinePoint {
  double x, y;
  const LayerStats *layer;
};

std::string tooltip(const RooflinePoint &p) {
  const LayerStats &L = *p.layer;
  return L.name + " (" + L.op + "): " + num(p.x, 3) + " MACs/byte, " +
         num(p.y, 3) + " MACs/cycle, " + num(L.boundRatio, 3) +
         "x the bound, limit " + L.limit;
}

/// Labels the points, most cycles first, right of the point (left near the
/// right edge `width`); a label that would cover a point, the roof's label
/// `roof` or another label is left out (the tooltip still names the layer).
void labelPoints(Svg &svg, std::vector<RooflinePoint> pts, const Axis &x,
                 const Axis &y, double width, const Box &roof) {
  std::sort(pts.begin(), pts.end(),
            [](const RooflinePoint &a, const RooflinePoint &b) {
              const LayerStats &l = *a.layer, &r = *b.layer;
              return l.cycles != r.cycles ? l.cycles > r.cycles : l.id < r.id;
            });
  std::vector<Box> placed = {roof};
  for (const RooflinePoint &p : pts)
    placed.push_back({x(p.x) - 5, y(p.y) - 5, x(p.x) + 5, y(p.y) + 5});
  for (const RooflinePoint &p : pts) {
    const std::string label = pointLabel(p.layer->name);
    const double len = labelWidth(label), px = x(p.x), py = y(p.y);
    const bool left = px + 8 + len > width;
    Box b{left ? px - 8 - len : px + 8, py - 8, left ? px - 8 : px + 8 + len,
          py + 5};
    if (std::any_of(placed.begin(), placed.end(),
                    [&](const Box &o) { return b.overlaps(o); }))
      continue;
    placed.push_back(b);
    svg.text(left ? b.x1 : b.x0, py + 4, label, left ? "end" : "start");
  }
}

/// Decade-aligned axes holding the points, the ridge and the peak.
void rooflineAxes(const std::vector<RooflinePoint> &pts, double peak, double bw,
                  Axis &x, Axis &y) {
  double xlo = peak / bw, xhi = xlo, ylo = peak;
  for (const RooflinePoint &p : pts) {
    xlo = std::min(xlo, p.x);
    xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y);
  }
  x.lo = std::pow(10, std::floor(std::log10(xlo / 2)));
  x.hi = std::pow(10, std::ceil(std::log10(xhi * 2)));
  y.lo = std::pow(10, std::floor(std::log10(ylo / 2)));
  y.hi = std::pow(10, std::ceil(std::log10(peak * 2)));
  x.log = y.log = true;
}

/// The roof min(peak, intensity * bandwidth), from where it enters the plot,
/// and its label; returns the label's box.
Box drawRoof(Svg &svg, const Axis &x, const Axis &y, double peak, double bw) {
  const double x0 = std::max(x.lo, y.lo / bw), ridge = peak / bw;
  svg.path("M" + num(x(x0), 6) + "," + num(y(std::min(peak, x0 * bw)), 6) +
               " L" + num(x(ridge), 6) + "," + num(y(peak), 6) + " L" +
               num(x(x.hi), 6) + "," + num(y(peak), 6),
           "roof");
  const std::string label =
      "peak " + si(peak) + " MACs/cycle, DRAM " + si(bw) + " B/cycle";
  svg.text(x(x.hi) - 4, y(peak) - 6, label, "end", "label");
  return {x(x.hi) - 4 - labelWidth(label), y(peak) - 18, x(x.hi) - 4,
          y(peak) - 2};
}

} // namespace

const char *unitColour(const std::string &unit) {
  static const std::map<std::string, size_t> index = {
      {"pe", 0}, {"dma", 1}, {"sfu", 2}, {"mesh", 4}};
  auto it = index.find(unit);
  return paletteColour(it == index.end() ? 7 : it->second);
}

std::string rooflinePlot(const HardwareDesc &hw, const SimStats &s,
                         size_t &omitted) {
  std::vector<RooflinePoint> pts;
  for (const LayerStats &L : s.layers)
    if (L.modelMacs && L.compulsoryBytes && L.cycles)
      pts.push_back({double(L.modelMacs) / double(L.compulsoryBytes),
                     double(L.modelMacs) / double(L.cycles), &L});
  omitted = s.layers.size() - pts.size();
  const double peak = hw.peakMacsPerCycle(), bw = hw.dramBytesPerCycle();
  const double w = 640, h = 400, left = 70, bottom = 48, top = 24;
  Svg svg("roofline", w, h, "roofline: one point per layer");
  if (!(peak > 0 && bw > 0))
    return svg.str();
  Axis x{0, 0, left, w - 20}, y{0, 0, h - bottom, top};
  rooflineAxes(pts, peak, bw, x, y);
  svg.xTicks(x, decadeTicks(x.lo, x.hi), y.from, y.to, si);
  svg.yTicks(y, decadeTicks(y.lo, y.hi), x.from, x.to, si);
  svg.text((x.from + x.to) / 2, h - 10, "model MACs per compulsory DRAM byte",
           "middle", "label");
  svg.text(4, 14, "model MACs per cycle", "start", "label");
  const Box roof = drawRoof(svg, x, y, peak, bw);
  for (const RooflinePoint &p : pts)
    svg.circle(x(p.x), y(p.y), 5, unitColour(p.layer->limit), tooltip(p));
  labelPoints(svg, pts, x, y, w, roof);
  return svg.str();
}

namespace {

/// A step outline of `frac` (0..1 per bin) filled down to the strip's base;
/// a run of equal bins is one step (idle stretches cost nothing).
std::string stepPath(const std::vector<double> &frac, const Axis &x,
                     uint64_t bin, double base, double height) {
  auto px = [&](uint64_t cycle) {
    return num(x(double(std::min<uint64_t>(cycle, uint64_t(x.hi)))), 6);
  };
  std::string level = num(base, 6);
  std::string d = "M" + px(0) + "," + level;
  for (size_t b = 0; b < frac.size(); ++b) {
    std::string py = num(base - std::clamp(frac[b], 0.0, 1.0) * height, 6);
    if (py == level)
      continue;
    d += " L" + px(b * bin) + "," + level + " L" + px(b * bin) + "," + py;
    level = std::move(py);
  }
  const std::string end = px(frac.size() * bin);
  return d + " L" + end + "," + level + " L" + end + "," + num(base, 6) + " Z";
}

/// Busy (or MAC) fraction of each bin: `v` over the bin's cycles (the last
/// bin may be cut short by the end of the run) times `perCycle`.
std::vector<double> fractions(const std::vector<double> &v, uint64_t bin,
                              uint64_t cycles, double perCycle) {
  std::vector<double> f(v.size());
  for (size_t b = 0; b < v.size(); ++b) {
    const uint64_t len =
        std::min<uint64_t>(bin, cycles - std::min<uint64_t>(cycles, b * bin));
    f[b] = len ? v[b] / (double(len) * perCycle) : 0;
  }
  return f;
}

} // namespace

std::string utilisationPlot(const HardwareDesc &hw, const SimStats &s) {
  const TimelineStats &t = s.timeline;
  const size_t n = t.peBusy.size();
  const double stripH = n <= 16 ? 36 : 18, gap = 6, top = 8;
  const double base0 = top + n * (stripH + gap);
  Svg svg("utilisation", kTimeWidth, base0 + 44,
          "PE-array busy and MAC utilisation over time, per cluster");
  const Axis x = timeAxis(svg, s, top, base0);
  const double lanes = double(hw.pesPerCluster) * hw.macLanes;
  for (size_t c = 0; c < n; ++c) {
    const double y0 = top + c * (stripH + gap);
    svg.rect(x.from, y0, x.to - x.from, stripH, "#f2f2f2");
    svg.path(stepPath(fractions(t.peBusy[c], t.binCycles, s.cycles, 1), x,
                      t.binCycles, y0 + stripH, stripH),
             "busy");
    svg.path(stepPath(fractions(t.macs[c], t.binCycles, s.cycles, lanes), x,
                      t.binCycles, y0 + stripH, stripH),
             "macs");
    const double macPct =
        c < s.clusters.size() ? 100 * s.clusters[c].macUtilisation : 0;
    svg.text(x.from - 6, y0 + stripH / 2 + 4,
             clusterLabel(s, c) + " " + num(macPct, 3) + " %", "end", "tick");
  }
  return svg.str();
}

std::string ganttPlot(const SimStats &s, const Networks &nets) {
  // [cluster][network]: first, last cycle (first > last: not there).
  const size_t n = s.clusters.size(), k = nets.names.size();
  std::vector<std::pair<uint64_t, uint64_t>> span(n * k, {UINT64_MAX, 0});
  for (const TimelineStats::Span &sp : s.timeline.layerSpans) {
    if (sp.layer >= nets.ofLayer.size() || sp.cluster >= n)
      continue;
    auto &b = span[sp.cluster * k + nets.ofLayer[sp.layer]];
    b.first = std::min(b.first, sp.first);
    b.second = std::max(b.second, sp.last);
  }
  const double rowH = 20, gap = 4, top = 8, base0 = top + n * (rowH + gap);
  Svg svg("gantt", kTimeWidth, base0 + 44, "networks on clusters over time");
  const Axis x = timeAxis(svg, s, top, base0);
  for (size_t c = 0; c < n; ++c) {
    const double y0 = top + c * (rowH + gap);
    svg.text(x.from - 6, y0 + rowH / 2 + 4, clusterLabel(s, c), "end", "tick");
    for (size_t net = 0; net < k; ++net) {
      auto [first, last] = span[c * k + net];
      if (first > last)
        continue;
      svg.rect(x(double(first)), y0,
               std::max(1.0, x(double(last)) - x(double(first))), rowH,
               paletteColour(net),
               nets.names[net] + " on " + clusterLabel(s, c) + ": cycles " +
                   std::to_string(first) + " to " + std::to_string(last));
    }
  }
  return svg.str();
}

} // namespace report
} // namespace accel
