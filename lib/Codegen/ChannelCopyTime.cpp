//===- ChannelCopyTime.cpp - Which copies of written buffers pay ----------===//
//
// A copy of a buffer the program writes on a second memory channel makes the
// reads of that channel's clusters local, so the reading layers' bytes are
// spread over both channels, but every store then writes both copies. Whether
// that shortens the run depends on the layers: a convolution that is bound by
// its MACs gains nothing from reads moved to the other channel and a pool
// writing a large map pays for the doubled writes. The plan prices both
// sides with each layer's roofline time (docs/passes.md, "Memory planning on
// channels").
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ChannelPlacement.h"
#include <algorithm>
#include <cstdint>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Bytes per layer and channel, and each layer's roofline time.
class LayerLoads {
public:
  LayerLoads(const HardwareDesc &hw, const std::vector<uint64_t> &macs)
      : nch_(std::max<size_t>(hw.channels.size(), 1)),
        bytes_((macs.size() + 1) * nch_, 0), mac_(macs.size() + 1, 0.0) {
    for (size_t c = 0; c < nch_; ++c)
      bandwidth_.push_back(c < hw.channels.size()
                               ? std::max(hw.channels[c].bytesPerCycle, 1e-9)
                               : 1);
    const double peak = std::max(hw.peakMacsPerCycle(), 1e-9);
    for (size_t l = 0; l < macs.size(); ++l)
      mac_[l] = double(macs[l]) / peak;
  }

  /// The row of `layer`; traffic of no layer (or an unknown one) shares the
  /// last row, priced without MACs.
  size_t row(uint32_t layer) const {
    return std::min<size_t>(layer, mac_.size() - 1);
  }
  void add(size_t row, uint32_t ch, int64_t b) {
    bytes_[row * nch_ + std::min<size_t>(ch, nch_ - 1)] += b;
  }
  double time(size_t row) const {
    double t = mac_[row];
    for (size_t c = 0; c < nch_; ++c)
      t = std::max(t, kCopyBurstFactor * double(bytes_[row * nch_ + c]) /
                          bandwidth_[c]);
    return t;
  }

private:
  size_t nch_;
  std::vector<int64_t> bytes_; ///< exact, so taking traffic away restores
  std::vector<double> mac_, bandwidth_;
};

/// Channels holding a copy of buffer b: the primary, then the replicas.
std::vector<uint32_t> copyChannels(const ChannelPlan &plan, size_t b) {
  std::vector<uint32_t> chs{plan.channel[b]};
  for (auto [ch, a] : plan.replicas[b])
    chs.push_back(ch);
  return chs;
}

/// Adds (sign +1) or takes away (-1) buffer b's traffic as the copies
/// `chs` (primary first) place it: reads from the reader's own copy, else
/// the primary; writes to every copy.
void place(LayerLoads &loads, const BufferTraffic &t,
           const std::vector<uint32_t> &chs, int64_t sign) {
  for (const LayerTraffic &e : t.layers) {
    size_t r = loads.row(e.layer);
    bool own = std::find(chs.begin(), chs.end(), e.channel) != chs.end();
    loads.add(r, own ? e.channel : chs.front(), sign * int64_t(e.read));
    for (uint32_t ch : chs)
      loads.add(r, ch, sign * int64_t(e.written));
  }
}

/// Sum of the roofline times of the layers buffer b's traffic touches.
double touchedTime(const LayerLoads &loads, const BufferTraffic &t) {
  std::vector<size_t> rows;
  for (const LayerTraffic &e : t.layers)
    rows.push_back(loads.row(e.layer));
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  double sum = 0;
  for (size_t r : rows)
    sum += loads.time(r);
  return sum;
}

bool isWritten(const BufferTraffic &t) {
  return std::any_of(t.written.begin(), t.written.end(),
                     [](uint64_t b) { return b != 0; });
}

} // namespace

CopyVeto accel::codegen::unprofitableCopies(
    const HardwareDesc &hw, const std::vector<DramBuffer> &buffers,
    const std::vector<BufferTraffic> &traffic, const ChannelPlan &plan,
    const std::vector<uint64_t> &layerMacs) {
  CopyVeto veto(buffers.size());
  LayerLoads loads(hw, layerMacs);
  for (size_t b = 0; b < buffers.size(); ++b)
    place(loads, traffic[b], copyChannels(plan, b), 1);
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (plan.replicas[b].empty() || !isWritten(traffic[b]))
      continue;
    std::vector<uint32_t> chs = copyChannels(plan, b);
    for (size_t k = 1; k < chs.size();) {
      double before = touchedTime(loads, traffic[b]);
      std::vector<uint32_t> without = chs;
      without.erase(without.begin() + long(k));
      place(loads, traffic[b], chs, -1);
      place(loads, traffic[b], without, 1);
      if (touchedTime(loads, traffic[b]) <= before) {
        veto[b].push_back(chs[k]);
        chs = std::move(without);
        continue;
      }
      place(loads, traffic[b], without, -1);
      place(loads, traffic[b], chs, 1);
      ++k;
    }
  }
  return veto;
}
