//===- BenchShapes.h - Machine + shape suite of the simulated modes -------===//
//
// --simulate and --machine-search both run one machine over the BERT-Large
// GEMMs and the ResNet-50 (batch 1) convolutions as GEMMs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILE_BENCH_BENCHSHAPES_H
#define ACCEL_TILE_BENCH_BENCHSHAPES_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/TileSelection.h"
#include <iostream>
#include <string>
#include <vector>

/// Loads `hwPath` into `hw` and fills `shapes` with the suite ("all",
/// "bert" or "resnet"); prints the error and returns false on a bad file.
inline bool loadBenchMachine(const std::string &hwPath,
                             const std::string &suite, accel::HardwareDesc &hw,
                             std::vector<accel::tiling::NamedProblem> &shapes) {
  std::string err;
  if (!accel::loadHardwareDesc(hwPath, hw, err)) {
    std::cerr << "accel-tile-bench: " << err << "\n";
    return false;
  }
  unsigned eb = accel::tiling::computeElemBytes(hw);
  if (suite != "resnet")
    for (auto &s : accel::tiling::bertLargeGemms(eb))
      shapes.push_back(s);
  if (suite != "bert")
    for (auto &s : accel::tiling::resnet50Gemms(eb, {1}))
      shapes.push_back(s);
  return true;
}

#endif
