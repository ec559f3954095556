// Numeric pass options out of their range are errors that name the pass, the
// option and the value, as the pipeline is parsed (lib/Transforms/
// OptionChecks.h); the passes check them again when they run, for options
// set from C++ (test/python/test_errors.py: the default pipeline's). Until 2026-12-07 each of these was taken silently: a
// negative `slices` read as "the cost rule", `slice-fraction=nan` compared
// false everywhere, a negative `partition-m` was ignored.
// RUN: not accel-opt --depth-first-channels=slices=-1 %s 2>&1 | FileCheck %s --check-prefix=DFC-SLICES
// DFC-SLICES: error: depth-first-channels: slices = -1 must be at least 0
// RUN: not accel-opt --depth-first-channels=slice-fraction=nan %s 2>&1 | FileCheck %s --check-prefix=DFC-NAN
// DFC-NAN: error: depth-first-channels: slice-fraction = nan must be a finite number > 0
// RUN: not accel-opt --depth-first-channels=slice-fraction=0 %s 2>&1 | FileCheck %s --check-prefix=DFC-ZERO
// DFC-ZERO: error: depth-first-channels: slice-fraction = 0 must be a finite number > 0
// RUN: not accel-opt "--depth-first-channels=whole-fraction=-2" %s 2>&1 | FileCheck %s --check-prefix=DFC-WHOLE
// DFC-WHOLE: error: depth-first-channels: whole-fraction = -2 must be a finite number >= 0
// RUN: not accel-opt "--depth-first-channels=min-dram-to-mac-ratio=inf" %s 2>&1 | FileCheck %s --check-prefix=DFC-INF
// DFC-INF: error: depth-first-channels: min-dram-to-mac-ratio = inf must be a finite number >= 0
// RUN: not accel-opt --depth-first-rows=max-slices=0 %s 2>&1 | FileCheck %s --check-prefix=DFR-MAX
// DFR-MAX: error: depth-first-rows: max-slices = 0 must be at least 1
// RUN: not accel-opt --depth-first-rows=slices=-4 %s 2>&1 | FileCheck %s --check-prefix=DFR-SLICES
// DFR-SLICES: error: depth-first-rows: slices = -4 must be at least 0
// RUN: not accel-opt "--select-tiling=partition-m=-1" %s 2>&1 | FileCheck %s --check-prefix=TILING
// TILING: error: select-tiling: partition-m = -1 must be at least 0
// RUN: not accel-opt "--select-tiling=partition-k=-3" %s 2>&1 | FileCheck %s --check-prefix=TILING-K
// TILING-K: error: select-tiling: partition-k = -3 must be at least 0
// RUN: not accel-opt --split-strategy=bytes-tolerance=-0.5 %s 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: split-strategy: bytes-tolerance = -0.5 must be a finite number >= 0
// The limits themselves are accepted.
// RUN: accel-opt "--depth-first-channels=slices=0 whole-fraction=0 min-dram-to-mac-ratio=0" "--depth-first-rows=max-slices=1" "--select-tiling=partition-m=0" "--split-strategy=bytes-tolerance=0" %s | FileCheck %s --check-prefix=LIMITS
// LIMITS: graph.relu

func.func @f(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %r = graph.relu %x : tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
