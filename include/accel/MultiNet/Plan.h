//===- Plan.h - Several networks as processes on execution units -*- C++
//-*-===//
//
// spec/multi-network.md: the clusters of the grid are execution units (EUs);
// each network is cut into processes (one or more layers), and processes of
// different networks run in parallel on different EUs, exchanging results
// through the routers. An interaction process combines results of two or
// more networks and runs on an EU in the intersection of those networks'
// target sets. This header is the problem a schedule answers; pure C++, no
// MLIR (docs/multi-network.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_MULTINET_PLAN_H
#define ACCEL_MULTINET_PLAN_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel::multinet {

/// An EU's position as the spec writes it: (x, y), both from 1.
struct Coord {
  int64_t x = 1, y = 1;
  bool operator==(const Coord &o) const { return x == o.x && y == o.y; }
};
std::string str(const Coord &c); ///< "(x,y)"

/// The EU grid: x in 1..cols, y in 1..rows, a 2-D mesh with XY routing.
/// Units are numbered (y - 1) * cols + (x - 1).
struct Grid {
  int64_t cols = 1, rows = 1;
  int64_t size() const { return cols * rows; }
  bool contains(const Coord &c) const {
    return c.x >= 1 && c.x <= cols && c.y >= 1 && c.y <= rows;
  }
  int64_t index(const Coord &c) const { return (c.y - 1) * cols + (c.x - 1); }
  Coord coord(int64_t u) const { return {u % cols + 1, u / cols + 1}; }
  /// Router hops between two units (XY routing: |dx| + |dy|).
  int64_t hops(int64_t a, int64_t b) const;
};

struct Process {
  std::string network, name;  ///< "A", "L1": shown as A.L1
  std::vector<size_t> inputs; ///< processes whose results it reads
  int64_t units = 1;          ///< EUs it runs on at once (a spatial unit)
  int64_t cycles = 1;         ///< its time on those units
  int64_t macs = 0;           ///< for the energy model
  /// Cycle its network's input arrives: it starts no earlier.
  int64_t arrival = 0;
  int64_t outputBytes = 0; ///< its result, sent to the EUs of its readers
  /// Weights (static data): loaded at the start, they stay in the memory of
  /// the EUs that run the process, split evenly over them.
  int64_t staticBytes = 0;
  std::vector<Coord> targets; ///< EUs it may run on (empty: every EU)
  std::vector<Coord> pinned;  ///< exactly these EUs (tests, user pinning)
  /// An interaction combines results of processes of two or more networks.
  /// Its EUs come from the intersection of the target sets of `between`
  /// (the networks' processes whose sets count; empty: `inputs`), and those
  /// processes may share an EU with it in its time unit.
  bool interaction = false;
  std::vector<size_t> between;

  /// "A.L1"; an interaction may have no process name: "X".
  std::string label() const {
    return name.empty() ? network : network + "." + name;
  }
  /// The processes whose target sets an interaction intersects.
  const std::vector<size_t> &betweenOrInputs() const {
    return between.empty() ? inputs : between;
  }
};

struct Plan {
  Grid grid;
  int64_t memoryBytes = 0; ///< per EU, for static data (0: unlimited)
  std::vector<Process> processes;
};

} // namespace accel::multinet

#endif
