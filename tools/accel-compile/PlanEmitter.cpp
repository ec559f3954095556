//===- PlanEmitter.cpp - A --networks plan as a multinet.plan -------------===//
//
// Process formation (spec/multi-network.md S11): each compiled network's
// layer table, with the data flow the lowering recorded (LayerInfo::inputs,
// inputSymbols, outputSymbols), becomes processes of a multinet.plan, so
// that multinet-schedule, multinet-power-gating and multinet-time can
// analyse a real plan. Every process is pinned where the binary runs it:
// a network's layers on its rectangle, an interaction on its cluster.
//
//===----------------------------------------------------------------------===//
#include "PlanEmitter.h"
#include "MultiNet/MultiNetDialect.h"
#include "mlir/IR/Builders.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace accel {

namespace {

using multinet::Coord;

/// The layer's roofline bound on `units` clusters: MACs over their peak,
/// compulsory bytes over the machine's DRAM bandwidth (at least 1 cycle).
uint64_t cycleEstimate(uint64_t macs, uint64_t bytes, uint32_t units,
                       const HardwareDesc &hw) {
  double dram = hw.dramBytesPerCycle();
  double peak = double(units) * hw.pesPerCluster * hw.macLanes;
  double c = std::max(double(macs) / peak, dram > 0 ? bytes / dram : 0.0);
  return std::max<uint64_t>(1, uint64_t(std::ceil(c)));
}

multinet::UnitsAttr rectUnits(MLIRContext *ctx, const ClusterRect &r) {
  SmallVector<Coord> cs;
  for (uint32_t y = r.row0; y < r.row0 + r.rows; ++y)
    for (uint32_t x = r.col0; x < r.col0 + r.cols; ++x)
      cs.push_back(Coord{int64_t(x) + 1, int64_t(y) + 1});
  return multinet::UnitsAttr::get(ctx, cs);
}

/// Builds the body: processes first, then the interactions, whose results
/// the processes that read them get as further inputs (a graph region).
class Emitter {
public:
  Emitter(OpBuilder &b, const multinet::NetworkPlanFile &plan,
          const std::vector<LinkPart> &parts, const HardwareDesc &hw)
      : b(b), plan(plan), parts(parts), hw(hw) {}

  void network(size_t n, ProcessGranularity g) {
    const LinkPart &part = parts[n];
    const auto &layers = part.program.layers;
    // Each layer's processes: one, or (Cluster) one per cluster.
    std::vector<SmallVector<Value>> ofLayer(layers.size());
    for (size_t i = 0; i < layers.size(); ++i) {
      const LayerInfo &L = layers[i];
      if (g == ProcessGranularity::Network && i > 0) {
        merge(ofLayer[0].front(), L, part);
        ofLayer[i] = ofLayer[0];
        continue;
      }
      SmallVector<Value> ins;
      for (uint32_t from : L.inputs)
        if (from < i)
          for (Value v : ofLayer[from])
            if (!llvm::is_contained(ins, v))
              ins.push_back(v);
      ofLayer[i] = g == ProcessGranularity::Cluster
                       ? perCluster(L, part, ins)
                       : SmallVector<Value>{whole(L, part, ins, g)};
    }
    for (size_t i = 0; i < layers.size(); ++i) {
      for (const std::string &s : layers[i].outputSymbols)
        producerOf[part.name + "." + s].append(ofLayer[i]);
      for (const std::string &s : layers[i].inputSymbols)
        readers[part.name + "." + s].append(ofLayer[i]);
    }
  }

  void interaction(size_t k) {
    const multinet::InteractionEntry &x = plan.interactions[k];
    const LinkPart &part = parts[plan.networks.size() + k];
    SmallVector<Value> ins;
    for (const multinet::TensorRef &r : x.inputs)
      for (Value v : producerOf.lookup(r.str()))
        ins.push_back(v);
    uint64_t macs = 0, bytes = 0, out = 0;
    for (const LayerInfo &L : part.program.layers) {
      macs += L.macs;
      bytes += L.compulsoryBytes;
      out = std::max(out, L.outputBytes);
    }
    auto kind = x.combine == "sum"       ? multinet::CombineKind::Sum
                : x.combine == "product" ? multinet::CombineKind::Product
                : x.combine == "concat"  ? multinet::CombineKind::Concat
                                         : multinet::CombineKind::Graph;
    auto op = multinet::InteractionOp::create(
        b, b.getUnknownLoc(), resultType(), x.name, kind, ins, ValueRange{},
        false, b.getI64IntegerAttr(1), cycleEstimate(macs, bytes, 1, hw), macs,
        out, 0, rectUnits(b.getContext(), part.rect), nullptr, nullptr);
    // Consumers read the input named after the interaction.
    for (const multinet::TensorRef &c : x.consumers)
      for (Value reader : readers.lookup(c.network + "." + x.name))
        cast<multinet::ProcessOp>(reader.getDefiningOp())
            .getInputsMutable()
            .append(op.getResult());
  }

private:
  Type resultType() { return multinet::ResultType::get(b.getContext()); }

  /// The layer on its network's whole rectangle (Layer), or the first
  /// layer of the network's one process (Network).
  Value whole(const LayerInfo &L, const LinkPart &part, ValueRange ins,
              ProcessGranularity g) {
    const uint32_t units = part.rect.rows * part.rect.cols;
    return multinet::ProcessOp::create(
        b, b.getUnknownLoc(), resultType(), part.name,
        g == ProcessGranularity::Network ? part.name : L.name, ins,
        /*targets=*/nullptr, b.getI64IntegerAttr(units),
        cycleEstimate(L.macs, L.compulsoryBytes, units, hw), L.macs,
        L.outputBytes, L.weightBytes, rectUnits(b.getContext(), part.rect),
        nullptr, nullptr);
  }

  /// --processes=cluster: the layer's part on each cluster of the
  /// rectangle, an even share of its figures (the lowering splits a layer
  /// over its clusters; its exact shares are in the simulator's stats).
  SmallVector<Value> perCluster(const LayerInfo &L, const LinkPart &part,
                                ValueRange ins) {
    multinet::UnitsAttr all = rectUnits(b.getContext(), part.rect);
    const uint64_t k = all.getCoords().size();
    auto share = [&](uint64_t v) { return (v + k - 1) / k; };
    SmallVector<Value> out;
    for (auto [c, coord] : llvm::enumerate(all.getCoords()))
      out.push_back(multinet::ProcessOp::create(
          b, b.getUnknownLoc(), resultType(), part.name,
          L.name + "[" + std::to_string(c) + "]", ins, nullptr,
          b.getI64IntegerAttr(1),
          cycleEstimate(share(L.macs), share(L.compulsoryBytes), 1, hw),
          share(L.macs), share(L.outputBytes), share(L.weightBytes),
          multinet::UnitsAttr::get(b.getContext(), {coord}), nullptr, nullptr));
    return out;
  }

  /// --processes=network: one process takes every layer of its network.
  void merge(Value process, const LayerInfo &L, const LinkPart &part) {
    auto p = cast<multinet::ProcessOp>(process.getDefiningOp());
    const uint32_t units = part.rect.rows * part.rect.cols;
    p.setMacs(p.getMacs() + L.macs);
    p.setCycles(p.getCycles() +
                cycleEstimate(L.macs, L.compulsoryBytes, units, hw));
    p.setStaticBytes(p.getStaticBytes() + L.weightBytes);
    if (!L.outputSymbols.empty())
      p.setOutputBytes(p.getOutputBytes() + L.outputBytes);
  }

  OpBuilder &b;
  const multinet::NetworkPlanFile &plan;
  const std::vector<LinkPart> &parts;
  const HardwareDesc &hw;
  llvm::StringMap<SmallVector<Value>> producerOf, readers;
};

} // namespace

OwningOpRef<ModuleOp> emitPlan(MLIRContext &ctx,
                               const multinet::NetworkPlanFile &plan,
                               const std::vector<LinkPart> &parts,
                               const HardwareDesc &full,
                               ProcessGranularity granularity) {
  ctx.loadDialect<multinet::MultiNetDialect>();
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> m = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(m->getBody());
  auto planOp = multinet::PlanOp::create(b, b.getUnknownLoc(), full.cols,
                                         full.rows, nullptr, nullptr);
  b.setInsertionPointToEnd(&planOp.getBody().emplaceBlock());
  for (const multinet::NetworkEntry &n : plan.networks)
    multinet::NetworkOp::create(b, b.getUnknownLoc(), n.name,
                                b.getStringAttr(n.model), 0);
  Emitter e(b, plan, parts, full);
  for (size_t n = 0; n < plan.networks.size(); ++n)
    e.network(n, granularity);
  for (size_t k = 0; k < plan.interactions.size(); ++k)
    e.interaction(k);
  return m;
}

} // namespace accel
