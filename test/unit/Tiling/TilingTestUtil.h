//===- TilingTestUtil.h - Shared helpers of the Tiling unit tests -*- C++ -*-=//
#ifndef ACCEL_TEST_UNIT_TILING_TILINGTESTUTIL_H
#define ACCEL_TEST_UNIT_TILING_TILINGTESTUTIL_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/TileSelection.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace accel::tiling::test {

/// A hardware preset of hw/ by name ("default" = the built-in default).
inline HardwareDesc presetHardware(const std::string &name) {
  if (name == "default")
    return defaultHardware();
  HardwareDesc hw;
  std::string err;
  EXPECT_TRUE(loadHardwareDesc(
      std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json", hw, err))
      << err;
  return hw;
}

/// `n` values uniform in [-1, 1) from a generator seeded with `seed`.
inline std::vector<float> randomData(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(gen);
  return v;
}

/// The parameters of the spec's worked example: d_s = 2 B, hw_power =
/// 32768 "MACs x d_s" = 16384 MACs/cycle, mata_bw = 64, matb_bw = 256
/// B/cycle, b_s1 = b_s2 = acc_max = 256 KiB.
inline TilingHardware specExampleHw() {
  TilingHardware hw;
  hw.macsPerCycle = 16384;
  hw.aBytesPerCycle = 64;
  hw.bBytesPerCycle = 256;
  hw.aBufferBytes = 256 << 10;
  hw.bBufferBytes = 256 << 10;
  hw.accBufferBytes = 256 << 10;
  hw.accElemBytes = 2;
  hw.blockSize = 64;
  return hw;
}

inline GemmProblem gemm(int64_t m, int64_t k, int64_t n, unsigned d = 2,
                        int64_t count = 1) {
  GemmProblem p;
  p.m = m, p.k = k, p.n = n, p.elemBytes = d, p.count = count;
  return p;
}

/// Random hardware parameters over a wide range (powers of two and odd
/// values mixed) and random shapes with remainders.
struct RandomCase {
  GemmProblem p;
  TilingHardware hw;
};

inline RandomCase randomCase(std::mt19937_64 &rng) {
  auto pick = [&](std::initializer_list<double> v) {
    return *(v.begin() +
             std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng));
  };
  auto dim = [&]() -> int64_t {
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0:
      return std::uniform_int_distribution<int64_t>(1, 256)(rng);
    case 1:
      return std::uniform_int_distribution<int64_t>(1, 64)(rng) * 64;
    case 2:
      return int64_t(1) << std::uniform_int_distribution<int>(4, 13)(rng);
    default:
      return std::uniform_int_distribution<int64_t>(1, 6000)(rng);
    }
  };
  RandomCase c;
  c.p.m = dim(), c.p.k = dim(), c.p.n = dim();
  c.p.elemBytes = unsigned(pick({1, 2, 2, 4, 4}));
  c.hw.macsPerCycle = pick({64, 256, 1024, 4096, 16384, 1000});
  c.hw.aBytesPerCycle = pick({1, 2, 4, 8, 16, 32, 64, 128, 256, 48});
  c.hw.bBytesPerCycle = pick({1, 2, 4, 8, 16, 32, 64, 128, 256, 48});
  c.hw.aBufferBytes = uint64_t(pick({16, 32, 64, 128, 256, 512, 1024, 96}))
                      << 10;
  c.hw.bBufferBytes = uint64_t(pick({16, 32, 64, 128, 256, 512, 1024, 96}))
                      << 10;
  c.hw.accBufferBytes = uint64_t(pick({16, 32, 64, 128, 256, 512, 48})) << 10;
  c.hw.accElemBytes = unsigned(pick({0, 0, 4}));
  c.hw.blockSize = int64_t(pick({64, 64, 32, 16}));
  c.hw.syncGranularityBytes = uint64_t(pick({1024, 4096, 65536}));
  c.hw.innerRowMajor = pick({0, 1}) != 0;
  return c;
}

} // namespace accel::tiling::test

#endif
