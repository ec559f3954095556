//===- TerminalProgress.h - One progress line on a terminal -----*- C++ -*-===//
//
// Benchmarks and accel-run show progress (issue 15): one line on stderr,
// rewritten in place at most ten times a second, and only when stdout and
// stderr are terminals and the environment has no CI variable, so logs,
// pipes and tests never see it. Python scripts use scripts/progress.py,
// which follows the same rules.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_TERMINALPROGRESS_H
#define ACCEL_SUPPORT_TERMINALPROGRESS_H

#include <chrono>
#include <cstddef>
#include <string>

namespace accel {

/// Whether progress may be shown (terminals, no CI variable).
bool progressWanted();

/// "WHAT: i / total LABEL" steps; erased when done or destroyed.
class TerminalProgress {
public:
  TerminalProgress(std::string what, size_t total);
  ~TerminalProgress() { clear(); }
  /// Step `i` (from 0) starts; `label` names it (a layer, a shape).
  void step(size_t i, const std::string &label);
  /// Shows `text` (already formatted), throttled as step is.
  void show(const std::string &text);
  /// Erases the line, if one was shown (before printing anything else).
  void clear();

private:
  std::string what;
  size_t total;
  bool enabled, shown = false;
  std::chrono::steady_clock::time_point last;
};

} // namespace accel

#endif
