//===- HostTimings.h - Where accel-run's own time goes -----------*- C++
//-*-===//
//
// `accel-run --host-timings`: the host time (wall and page faults) of each
// phase of one run (binary read, validation, inputs, simulation, outputs),
// printed to stderr as one line. The zoo benchmark compares the whole
// process against onnxruntime (docs/zoo.md, "sim / reference"); this line
// says which phase a change must shorten (docs/simulator.md, "Simulator
// speed").
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TOOLS_ACCEL_RUN_HOSTTIMINGS_H
#define ACCEL_TOOLS_ACCEL_RUN_HOSTTIMINGS_H

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace accel {

class HostTimings {
public:
  HostTimings();
  /// Ends the current phase under `name` and starts the next one.
  void mark(const std::string &name);
  /// "host: start 0.6 ms, read-binary 1.9 ms (120 faults), ..., total
  /// 40.1 ms (4600 faults)"; `start` is the process start (as the kernel
  /// recorded it) to the first line of main.
  std::string summary() const;

private:
  struct Phase {
    std::string name;
    double ms;
    uint64_t faults;
  };
  std::chrono::steady_clock::time_point last;
  uint64_t lastFaults;
  double startMs;
  uint64_t startFaults;
  std::vector<Phase> phases;
};

} // namespace accel

#endif
