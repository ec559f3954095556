//===- HostTimings.cpp - Where accel-run's own time goes ------------------===//

#include "HostTimings.h"

#include <cstdio>
#include <ctime>

#include <sys/resource.h>

namespace accel {

namespace {

uint64_t pageFaults() {
  struct rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return uint64_t(u.ru_minflt) + uint64_t(u.ru_majflt);
}

/// CPU time the process used before main (the loader, the shared
/// libraries' relocations and static constructors): its CPU clock at the
/// first call. Wall time since the exec is not available portably; the
/// process was busy all along, so its CPU time is the cost.
double cpuMsSoFar() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

std::string format(const char *name, double ms, uint64_t faults) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %.1f ms (%llu faults)", name, ms,
                (unsigned long long)faults);
  return buf;
}

} // namespace

HostTimings::HostTimings()
    : last(std::chrono::steady_clock::now()), lastFaults(pageFaults()),
      startMs(cpuMsSoFar()), startFaults(lastFaults) {}

void HostTimings::mark(const std::string &name) {
  auto now = std::chrono::steady_clock::now();
  uint64_t faults = pageFaults();
  phases.push_back(
      {name, std::chrono::duration<double, std::milli>(now - last).count(),
       faults - lastFaults});
  last = now;
  lastFaults = faults;
}

std::string HostTimings::summary() const {
  std::string s = "host: " + format("start", startMs, startFaults);
  double total = startMs;
  for (const Phase &p : phases) {
    s += ", " + format(p.name.c_str(), p.ms, p.faults);
    total += p.ms;
  }
  return s + ", " + format("total", total, lastFaults);
}

} // namespace accel
