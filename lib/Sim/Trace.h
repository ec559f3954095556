//===- Trace.h - Chrome trace event recorder (private to AccelSim) --------===//
#ifndef ACCEL_LIB_SIM_TRACE_H
#define ACCEL_LIB_SIM_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel {

/// Collects "X" (complete) events and process/thread metadata and writes
/// them as a Chrome trace event JSON object. Timestamps are cycles.
class TraceRecorder {
public:
  void enable() { on = true; }
  bool enabled() const { return on; }
  /// Names process `pid` and its threads 0..n-1.
  void process(uint64_t pid, const std::string &name,
               const std::vector<std::string> &threads);
  /// Names thread `tid` of process `pid` (a track added after process()).
  void thread(uint64_t pid, uint64_t tid, const std::string &name);
  /// `args` is a JSON object text ("{}" for none).
  void complete(const std::string &name, uint64_t pid, uint64_t tid,
                uint64_t ts, uint64_t dur, const std::string &args);
  bool write(const std::string &path, std::string &err) const;
  size_t size() const { return events.size(); }

private:
  bool on = false;
  std::vector<std::string> events; ///< serialised JSON objects
};

/// JSON string literal (with quotes) of `s`.
std::string jsonQuote(const std::string &s);

} // namespace accel

#endif
