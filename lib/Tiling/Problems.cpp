//===- Problems.cpp - Convolution mapping, hardware derivation, suites ----===//
#include "Internal.h"

#include "accel/Hardware/HardwareDesc.h"

#include <algorithm>
#include <limits>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::detail;

//===----------------------------------------------------------------------===//
// Convolution as GEMM
//===----------------------------------------------------------------------===//

namespace {
int64_t outExtent(int64_t in, int64_t padLo, int64_t padHi, int64_t kernel,
                  int64_t stride, int64_t dilation) {
  int64_t span = dilation * (kernel - 1) + 1;
  int64_t avail = in + padLo + padHi - span;
  if (avail < 0 || stride <= 0)
    return 0;
  return avail / stride + 1;
}

/// Input rows (or columns) some output reads: in [0, in), padding excluded.
int64_t extentRead(int64_t in, int64_t out, int64_t padLo, int64_t kernel,
                   int64_t stride, int64_t dilation) {
  std::vector<bool> read(size_t(in), false);
  int64_t count = 0;
  // Only outputs whose window can reach [0, in): o * stride lies in
  // [padLo - (kernel - 1) * dilation, in - 1 + padLo]. Padding of any size
  // then costs nothing (a pad of 2^40 rows took hours).
  const int64_t lo = padLo - (kernel - 1) * dilation;
  const int64_t first = lo <= 0 ? 0 : (lo + stride - 1) / stride;
  const int64_t last = std::min(out - 1, (in - 1 + padLo) / stride);
  for (int64_t o = first; o <= last; ++o)
    for (int64_t i = 0; i < kernel; ++i) {
      int64_t r = o * stride - padLo + i * dilation;
      if (r >= 0 && r < in && !read[size_t(r)]) {
        read[size_t(r)] = true;
        ++count;
      }
    }
  return count;
}
} // namespace

int64_t ConvShape::outH() const {
  return outExtent(inH, padTop, padBottom, kernelH, strideH, dilationH);
}
int64_t ConvShape::outW() const {
  return outExtent(inW, padLeft, padRight, kernelW, strideW, dilationW);
}

bool accel::tiling::convToGemm(const ConvShape &c, unsigned elemBytes,
                               GemmProblem &out, std::string &err) {
  if (c.batch <= 0 || c.inChannels <= 0 || c.inH <= 0 || c.inW <= 0 ||
      c.outChannels <= 0 || c.kernelH <= 0 || c.kernelW <= 0) {
    err = "convolution extents must be >= 1";
    return false;
  }
  if (c.strideH <= 0 || c.strideW <= 0 || c.dilationH <= 0 ||
      c.dilationW <= 0 || c.groups <= 0) {
    err = "stride, dilation and groups must be >= 1";
    return false;
  }
  if (c.padTop < 0 || c.padLeft < 0 || c.padBottom < 0 || c.padRight < 0) {
    err = "padding must be >= 0";
    return false;
  }
  if (c.inChannels % c.groups || c.outChannels % c.groups) {
    err = "channels must be divisible by groups";
    return false;
  }
  const int64_t oh = c.outH(), ow = c.outW();
  if (oh <= 0 || ow <= 0) {
    err = "the kernel does not fit the padded input";
    return false;
  }
  const int64_t icg = c.inChannels / c.groups;
  GemmProblem p;
  p.m = c.outChannels / c.groups;
  p.k = icg * c.kernelH * c.kernelW;
  p.n = c.batch * oh * ow;
  p.elemBytes = elemBytes;
  p.count = c.groups;
  const int64_t rows =
      extentRead(c.inH, oh, c.padTop, c.kernelH, c.strideH, c.dilationH);
  const int64_t cols =
      extentRead(c.inW, ow, c.padLeft, c.kernelW, c.strideW, c.dilationW);
  p.bLoadBytes = uint64_t(c.batch) * uint64_t(icg) * uint64_t(rows) *
                 uint64_t(cols) * elemBytes;
  if (p.bLoadBytes == 0)
    p.bLoadBytes = 1; // every read lands in padding: a token load
  if (!validateProblem(p, err))
    return false;
  out = p;
  return true;
}

//===----------------------------------------------------------------------===//
// Hardware description -> tiling parameters
//===----------------------------------------------------------------------===//

unsigned accel::tiling::computeElemBytes(const HardwareDesc &hw) {
  return dtypeBytes(hw.computeType);
}

TilingHardware accel::tiling::deriveTilingHardware(const HardwareDesc &hw,
                                                   const DeriveOptions &o) {
  TilingHardware t;
  t.macsPerCycle = double(hw.pesPerCluster) * double(hw.macLanes);
  t.aBufferBytes = uint64_t(hw.pesPerCluster) * hw.inputBufferBytes;
  t.bBufferBytes = hw.weightQueueBytes;
  t.accBufferBytes = uint64_t(hw.pesPerCluster) * 4 * hw.accBufferBytes;
  t.accElemBytes = dtypeBytes(hw.accumulateType);
  t.blockSize = hw.blockSize;
  t.syncGranularityBytes = hw.syncGranularityBytes;

  // The cluster's share of its memory channel when `active` clusters stream
  // at once; the slowest active cluster bounds the layer.
  const uint32_t nCl = hw.numClusters();
  const uint32_t active =
      o.activeClusters ? std::min(o.activeClusters, nCl) : nCl;
  double share = std::numeric_limits<double>::infinity();
  if (!hw.channels.empty() && active > 0) {
    std::vector<uint32_t> users(hw.channels.size(), 0);
    for (uint32_t c = 0; c < active; ++c)
      ++users[hw.channelOf(c)];
    for (uint32_t c = 0; c < active; ++c) {
      uint32_t ch = hw.channelOf(c);
      share = std::min(share, hw.channels[ch].bytesPerCycle / users[ch]);
    }
  }
  auto bw = [&](Placement pl, double ldRate) {
    return pl == Placement::Dram ? std::min(ldRate, share) : ldRate;
  };
  t.aBytesPerCycle = bw(o.a, hw.actLoadBytesPerCycle);
  t.bBytesPerCycle = bw(o.b, hw.weightLoadBytesPerCycle);
  return t;
}

//===----------------------------------------------------------------------===//
// Shape suites
//===----------------------------------------------------------------------===//

std::vector<NamedProblem> accel::tiling::bertLargeGemms(unsigned elemBytes) {
  const int64_t hidden = 1024, ffn = 4096, heads = 16, headDim = 64;
  std::vector<NamedProblem> out;
  auto add = [&](std::string name, int64_t m, int64_t k, int64_t n,
                 int64_t count) {
    GemmProblem p;
    p.m = m, p.k = k, p.n = n, p.elemBytes = elemBytes, p.count = count;
    out.push_back({std::move(name), p});
  };
  for (int64_t seq : {128, 384, 512})
    for (int64_t batch : {1, 8, 32}) {
      const int64_t tokens = batch * seq;
      std::string pre =
          "bert.s" + std::to_string(seq) + ".b" + std::to_string(batch) + ".";
      add(pre + "qkv_proj", tokens, hidden, hidden, 3);
      add(pre + "attn_scores", seq, headDim, seq, batch * heads);
      add(pre + "attn_context", seq, seq, headDim, batch * heads);
      add(pre + "attn_out_proj", tokens, hidden, hidden, 1);
      add(pre + "ffn_up", tokens, hidden, ffn, 1);
      add(pre + "ffn_down", tokens, ffn, hidden, 1);
      add(pre + "pooler", batch, hidden, hidden, 1);
    }
  return out;
}

std::vector<NamedProblem>
accel::tiling::resnet50Gemms(unsigned elemBytes,
                             const std::vector<int64_t> &batches) {
  struct L {
    const char *name;
    int64_t ic, hw, oc, k, stride;
  };
  // ResNet-50 v1.5 (stride on the 3x3 of each stage's first block); every
  // distinct convolution once ("x<n>" = how often it occurs).
  static const L layers[] = {
      {"conv1_7x7s2", 3, 224, 64, 7, 2},
      {"layer1.b1.conv1_1x1", 64, 56, 64, 1, 1},
      {"layer1.conv2_3x3_x3", 64, 56, 64, 3, 1},
      {"layer1.conv3_1x1_x3", 64, 56, 256, 1, 1},
      {"layer1.downsample_1x1", 64, 56, 256, 1, 1},
      {"layer1.conv1_1x1_x2", 256, 56, 64, 1, 1},
      {"layer2.b1.conv1_1x1", 256, 56, 128, 1, 1},
      {"layer2.b1.conv2_3x3s2", 128, 56, 128, 3, 2},
      {"layer2.conv3_1x1_x4", 128, 28, 512, 1, 1},
      {"layer2.downsample_1x1s2", 256, 56, 512, 1, 2},
      {"layer2.conv1_1x1_x3", 512, 28, 128, 1, 1},
      {"layer2.conv2_3x3_x3", 128, 28, 128, 3, 1},
      {"layer3.b1.conv1_1x1", 512, 28, 256, 1, 1},
      {"layer3.b1.conv2_3x3s2", 256, 28, 256, 3, 2},
      {"layer3.conv3_1x1_x6", 256, 14, 1024, 1, 1},
      {"layer3.downsample_1x1s2", 512, 28, 1024, 1, 2},
      {"layer3.conv1_1x1_x5", 1024, 14, 256, 1, 1},
      {"layer3.conv2_3x3_x5", 256, 14, 256, 3, 1},
      {"layer4.b1.conv1_1x1", 1024, 14, 512, 1, 1},
      {"layer4.b1.conv2_3x3s2", 512, 14, 512, 3, 2},
      {"layer4.conv3_1x1_x3", 512, 7, 2048, 1, 1},
      {"layer4.downsample_1x1s2", 1024, 14, 2048, 1, 2},
      {"layer4.conv1_1x1_x2", 2048, 7, 512, 1, 1},
      {"layer4.conv2_3x3_x2", 512, 7, 512, 3, 1},
  };
  std::vector<NamedProblem> out;
  for (int64_t batch : batches) {
    std::string pre = "resnet50.b" + std::to_string(batch) + ".";
    for (const L &l : layers) {
      ConvShape c;
      c.batch = batch;
      c.inChannels = l.ic;
      c.inH = c.inW = l.hw;
      c.outChannels = l.oc;
      c.kernelH = c.kernelW = l.k;
      c.strideH = c.strideW = l.stride;
      c.padTop = c.padLeft = c.padBottom = c.padRight = l.k / 2;
      GemmProblem p;
      std::string err;
      if (convToGemm(c, elemBytes, p, err))
        out.push_back({pre + l.name, p});
    }
    GemmProblem fc;
    fc.m = batch, fc.k = 2048, fc.n = 1000, fc.elemBytes = elemBytes;
    out.push_back({pre + "fc", fc});
  }
  return out;
}
