//===- DmaCopy.h - The bytes of one DMA -----------------------------------===//
//
// doDma checks a DMA, times it and records its accesses; the copy itself is
// this value, run on the cluster's data lane (DataLanes.h) in issue
// order. Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_DMACOPY_H
#define ACCEL_LIB_SIM_DMACOPY_H

#include "SimImpl.h"

namespace accel {
namespace sim {

/// A checked DMA with at least one element: its boxes lie inside their
/// memories (`src` and `dst` are the byte ranges doDma checked).
struct DmaCopy {
  /// The command's descriptor, in the Program (unchanged while it runs).
  const DmaDesc *desc;
  PagedMemory *dram;
  uint8_t *srcStorage; ///< the source storage unit; nullptr: DRAM
  uint8_t *dstStorage; ///< the destination storage unit; nullptr: DRAM
  Range src, dst;

  /// Copies every element, as the element-at-a-time loop in the box's order
  /// would (docs/simulator.md "Simulator speed", DMA): overlapping DRAM to
  /// DRAM copies read the whole source box before writing.
  void operator()() const;
};

} // namespace sim
} // namespace accel

#endif
