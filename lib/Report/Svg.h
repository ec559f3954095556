//===- Svg.h - SVG and HTML text for the report (private to AccelReport) --===//
//
// Just enough SVG for the report's plots: shapes with tooltips (<title>),
// text, axes mapping values to pixels (linear or log10), tick positions.
// Every text that goes into the page passes through escapeHtml.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_REPORT_SVG_H
#define ACCEL_LIB_REPORT_SVG_H

#include <string>
#include <vector>

namespace accel {
namespace report {

/// `s` with & < > " ' as character references (text and attribute values).
std::string escapeHtml(const std::string &s);
/// `v` with `digits` significant digits ("%.*g").
std::string num(double v, int digits = 4);
/// `v` with an SI suffix: 950, 1.2k, 34M, 5.6G.
std::string si(double v);
/// Colour `i` of a palette that stays distinguishable for ~10 entries.
const char *paletteColour(size_t i);

/// Values [lo, hi] onto pixels [from, to] (to < from for a y axis).
struct Axis {
  double lo = 0, hi = 1, from = 0, to = 1;
  bool log = false;
  double operator()(double v) const;
};
/// About `target` round ticks (1, 2 or 5 x 10^k apart) in [lo, hi].
std::vector<double> linearTicks(double lo, double hi, int target);
/// The powers of ten in [lo, hi].
std::vector<double> decadeTicks(double lo, double hi);

class Svg {
public:
  /// `label`: the plot's accessible name (aria-label).
  Svg(const std::string &id, double width, double height,
      const std::string &label);
  void rect(double x, double y, double w, double h, const std::string &fill,
            const std::string &tooltip = "");
  void line(double x1, double y1, double x2, double y2, const std::string &cls);
  void circle(double x, double y, double r, const std::string &fill,
              const std::string &tooltip);
  /// `cls` styles it (the page's CSS).
  void path(const std::string &d, const std::string &cls);
  /// `anchor`: start, middle or end.
  void text(double x, double y, const std::string &s,
            const char *anchor = "start", const std::string &cls = "");
  /// Tick marks, grid lines and labels of `x` along the bottom at `y0`
  /// (grid up to `y1`), `format` making each label.
  void xTicks(const Axis &x, const std::vector<double> &ticks, double y0,
              double y1, std::string (*format)(double));
  void yTicks(const Axis &y, const std::vector<double> &ticks, double x0,
              double x1, std::string (*format)(double));
  std::string str() const { return body + "</svg>\n"; }

private:
  std::string body;
};

} // namespace report
} // namespace accel

#endif
