//===- MacKernelsTest.cpp - Vector MAC kernels against the reference loop -===//
//
// The register-blocked f32 MAC kernels (lib/Sim/MacKernels.h) must be
// bit-identical to macDenseReference: same products, same additions, same
// order. Every instruction set the host supports is checked on geometries
// that hit every row block (8 / 4 / 1 rows) and every column tail, with
// activation pitch and base offsets, and on special values (signed zeros,
// infinities, NaN, subnormals).
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/MacKernels.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

using namespace accel;
using namespace accel::sim;

namespace {

std::vector<MacIsa> supportedIsas() {
  std::vector<MacIsa> isas = {MacIsa::Scalar};
  if (hostMacIsa() == MacIsa::Avx2 || hostMacIsa() == MacIsa::Avx512)
    isas.push_back(MacIsa::Avx2);
  if (hostMacIsa() == MacIsa::Avx512)
    isas.push_back(MacIsa::Avx512);
  return isas;
}

const char *isaName(MacIsa isa) {
  switch (isa) {
  case MacIsa::Avx512:
    return "avx512";
  case MacIsa::Avx2:
    return "avx2";
  default:
    return "scalar";
  }
}

/// Runs the kernel on `isa` and the reference loop from the same
/// accumulator and expects the same bits in every element.
void expectBitIdentical(const std::vector<float> &A,
                        const std::vector<float> &W,
                        const std::vector<float> &C0, const MacGeom &g,
                        MacIsa isa) {
  std::vector<float> ref = C0, got = C0;
  macDenseReference(A.data(), W.data(), ref.data(), g, DType::F32);
  macDenseF32(A.data(), W.data(), got.data(), g, isa);
  for (size_t i = 0; i < ref.size(); ++i) {
    uint32_t a, b;
    std::memcpy(&a, &ref[i], 4);
    std::memcpy(&b, &got[i], 4);
    // NaN payloads may differ (which operand's NaN propagates); NaN-ness
    // may not.
    if (std::isnan(ref[i]) && std::isnan(got[i]))
      continue;
    ASSERT_EQ(a, b) << isaName(isa) << " R=" << g.R << " K=" << g.K
                    << " N=" << g.N << " pitch=" << g.pitch
                    << " base=" << g.base << " ldc=" << g.ldc << " element "
                    << i << ": " << ref[i] << " vs " << got[i];
  }
}

struct Problem {
  std::vector<float> A, W, C;
  MacGeom g;
};

Problem randomProblem(std::mt19937 &rng, uint64_t R, uint64_t K, uint64_t N,
                      uint64_t extraPitch, uint64_t base) {
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  Problem p;
  p.g.R = R;
  p.g.K = K;
  p.g.N = N;
  p.g.pitch = K + extraPitch;
  p.g.base = base;
  p.A.resize(R * p.g.pitch + base + K + 1);
  p.W.resize(K * N + 1);
  p.C.resize(R * N);
  for (float &v : p.A)
    v = u(rng);
  for (float &v : p.W)
    v = u(rng);
  for (float &v : p.C)
    v = u(rng);
  return p;
}

} // namespace

TEST(MacKernels, HostIsaIsOneOfTheKnownOnes) {
  MacIsa isa = hostMacIsa();
  EXPECT_TRUE(isa == MacIsa::Scalar || isa == MacIsa::Avx2 ||
              isa == MacIsa::Avx512);
  EXPECT_EQ(hostMacIsa(), isa); // decided once
}

TEST(MacKernels, BitIdenticalToReferenceOnEveryBlockAndTail) {
  std::mt19937 rng(7);
  // Rows cover the 8-, 4- and 1-row blocks and their mixes; columns every
  // tail of the 8-, 16- and 32-wide column blocks.
  const uint64_t rowsList[] = {1, 3, 4, 5, 8, 13, 16, 19};
  const uint64_t colsList[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 49, 64, 70};
  const uint64_t depthList[] = {0, 1, 3, 64};
  for (MacIsa isa : supportedIsas())
    for (uint64_t R : rowsList)
      for (uint64_t N : colsList)
        for (uint64_t K : depthList) {
          Problem p = randomProblem(rng, R, K, N, R % 3, N % 5);
          expectBitIdentical(p.A, p.W, p.C, p.g, isa);
        }
}

TEST(MacKernels, AccumulatorRowStrideLeavesTheGapsAlone) {
  // Rows of several PEs' buffers in one call (runMacs): the accumulator rows
  // ldc floats apart, activation rows a buffer apart. Every row gets the
  // reference's operations; the floats between the rows are not touched.
  std::mt19937 rng(5);
  const uint64_t rowsList[] = {1, 2, 4, 5, 8, 9, 16};
  const uint64_t colsList[] = {1, 14, 16, 17, 33};
  for (MacIsa isa : supportedIsas())
    for (uint64_t R : rowsList)
      for (uint64_t N : colsList) {
        Problem p = randomProblem(rng, R, 18, N, 100, 3);
        p.g.ldc = N + 37;
        p.C.assign(R * p.g.ldc, 0.0f);
        std::uniform_real_distribution<float> u(-2.0f, 2.0f);
        for (float &v : p.C)
          v = u(rng);
        std::vector<float> before = p.C;
        expectBitIdentical(p.A, p.W, p.C, p.g, isa);
        std::vector<float> got = p.C;
        macDenseF32(p.A.data(), p.W.data(), got.data(), p.g, isa);
        for (uint64_t i = 0; i < got.size(); ++i)
          if (i % p.g.ldc >= N)
            ASSERT_EQ(got[i], before[i]) << isaName(isa) << " gap float " << i;
      }
}

TEST(MacKernels, OverlappingWindowRows) {
  // Convolution windows: the row pitch is smaller than the depth (rows of
  // activations overlap), as the MAC allows.
  std::mt19937 rng(3);
  for (MacIsa isa : supportedIsas()) {
    Problem p = randomProblem(rng, 12, 9, 40, 0, 2);
    p.g.pitch = 3;
    expectBitIdentical(p.A, p.W, p.C, p.g, isa);
  }
}

TEST(MacKernels, SpecialValuesRoundAsTheReference) {
  // Products and sums that overflow, cancel to a signed zero, meet NaN or
  // stay subnormal: two roundings per step, exactly as the reference loop.
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, 3e38f,  -3e38f,       inf,
                        -inf, nan,   tiny, -tiny, 1e-20f, 1.0f + 1e-7f, 7.5f};
  std::mt19937 rng(11);
  std::uniform_int_distribution<size_t> pick(0, std::size(vals) - 1);
  for (MacIsa isa : supportedIsas())
    for (int trial = 0; trial < 20; ++trial) {
      Problem p = randomProblem(rng, 9, 5, 35, 1, 0);
      for (float &v : p.A)
        v = vals[pick(rng)];
      for (float &v : p.W)
        v = vals[pick(rng)];
      for (float &v : p.C)
        v = vals[pick(rng)];
      expectBitIdentical(p.A, p.W, p.C, p.g, isa);
    }
}

TEST(MacKernels, MacDenseUsesTheFastPathOnlyForF32) {
  // Narrow accumulators round after every addition: macDense keeps the
  // reference loop for them (same bits), and the f32 path equals it too.
  std::mt19937 rng(5);
  Problem p = randomProblem(rng, 6, 20, 24, 0, 0);
  for (DType t : {DType::F32, DType::BF16, DType::F16}) {
    std::vector<float> ref = p.C, got = p.C;
    macDenseReference(p.A.data(), p.W.data(), ref.data(), p.g, t);
    macDense(p.A.data(), p.W.data(), got.data(), p.g, t);
    EXPECT_EQ(0, std::memcmp(ref.data(), got.data(), ref.size() * 4));
  }
}
