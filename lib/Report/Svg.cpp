//===- Svg.cpp - SVG and HTML text for the report -------------------------===//
#include "Svg.h"

#include <cmath>
#include <cstdio>

namespace accel {
namespace report {

std::string escapeHtml(const std::string &s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      o += "&amp;";
      break;
    case '<':
      o += "&lt;";
      break;
    case '>':
      o += "&gt;";
      break;
    case '"':
      o += "&quot;";
      break;
    case '\'':
      o += "&#39;";
      break;
    default:
      o += c;
    }
  }
  return o;
}

std::string num(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string si(double v) {
  static const char *suffix[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (std::fabs(v) >= 1000 && k < 5) {
    v /= 1000;
    ++k;
  }
  return num(v, 3) + suffix[k];
}

const char *paletteColour(size_t i) {
  static const char *colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                  "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                  "#bcbd22", "#17becf"};
  return colours[i % 10];
}

double Axis::operator()(double v) const {
  double a = lo, b = hi;
  if (log) {
    a = std::log10(a);
    b = std::log10(b);
    v = std::log10(v);
  }
  return b > a ? from + (v - a) / (b - a) * (to - from) : from;
}

std::vector<double> linearTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || target < 1)
    return ticks;
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {2.0, 5.0, 10.0})
    if (step < raw)
      step = m * mag;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(t);
  return ticks;
}

std::vector<double> decadeTicks(double lo, double hi) {
  std::vector<double> ticks;
  for (int k = int(std::ceil(std::log10(lo) - 1e-9));
       std::pow(10.0, k) <= hi * (1 + 1e-9); ++k)
    ticks.push_back(std::pow(10.0, k));
  return ticks;
}

Svg::Svg(const std::string &id, double width, double height,
         const std::string &label) {
  body = "<svg id=\"" + escapeHtml(id) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" +
         num(width, 6) + "\" height=\"" + num(height, 6) + "\" viewBox=\"0 0 " +
         num(width, 6) + " " + num(height, 6) + "\" aria-label=\"" +
         escapeHtml(label) + "\">\n";
}

/// The end of a shape's tag: with a <title> child, which browsers show on
/// hover, when there is a tooltip.
static std::string closeWith(const std::string &tooltip, const char *tag) {
  if (tooltip.empty())
    return "/>\n";
  return "><title>" + escapeHtml(tooltip) + "</title></" + tag + ">\n";
}

void Svg::rect(double x, double y, double w, double h, const std::string &fill,
               const std::string &tooltip) {
  body += "<rect x=\"" + num(x, 6) + "\" y=\"" + num(y, 6) + "\" width=\"" +
          num(w, 6) + "\" height=\"" + num(h, 6) + "\" fill=\"" +
          escapeHtml(fill) + "\"" + closeWith(tooltip, "rect");
}

void Svg::line(double x1, double y1, double x2, double y2,
               const std::string &cls) {
  body += "<line x1=\"" + num(x1, 6) + "\" y1=\"" + num(y1, 6) + "\" x2=\"" +
          num(x2, 6) + "\" y2=\"" + num(y2, 6) + "\" class=\"" +
          escapeHtml(cls) + "\"/>\n";
}

void Svg::circle(double x, double y, double r, const std::string &fill,
                 const std::string &tooltip) {
  body += "<circle cx=\"" + num(x, 6) + "\" cy=\"" + num(y, 6) + "\" r=\"" +
          num(r, 3) + "\" fill=\"" + escapeHtml(fill) + "\"" +
          closeWith(tooltip, "circle");
}

void Svg::path(const std::string &d, const std::string &cls) {
  body += "<path d=\"" + d + "\" class=\"" + escapeHtml(cls) + "\"/>\n";
}

void Svg::text(double x, double y, const std::string &s, const char *anchor,
               const std::string &cls) {
  body += "<text x=\"" + num(x, 6) + "\" y=\"" + num(y, 6) +
          "\" text-anchor=\"" + anchor + "\"" +
          (cls.empty() ? "" : " class=\"" + escapeHtml(cls) + "\"") + ">" +
          escapeHtml(s) + "</text>\n";
}

void Svg::xTicks(const Axis &x, const std::vector<double> &ticks, double y0,
                 double y1, std::string (*format)(double)) {
  for (double t : ticks) {
    const double px = x(t);
    line(px, y0, px, y1, "grid");
    line(px, y0, px, y0 + 4, "axis");
    text(px, y0 + 16, format(t), "middle", "tick");
  }
}

void Svg::yTicks(const Axis &y, const std::vector<double> &ticks, double x0,
                 double x1, std::string (*format)(double)) {
  for (double t : ticks) {
    const double py = y(t);
    line(x0, py, x1, py, "grid");
    line(x0 - 4, py, x0, py, "axis");
    text(x0 - 6, py + 4, format(t), "end", "tick");
  }
}

} // namespace report
} // namespace accel
