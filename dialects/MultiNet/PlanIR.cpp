//===- PlanIR.cpp - multinet.plan <-> the scheduling library
//---------------===//
#include "MultiNet/PlanIR.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace accel::multinet {

std::vector<Coord> coordsOf(UnitsAttr attr) {
  if (!attr)
    return {};
  return {attr.getCoords().begin(), attr.getCoords().end()};
}

namespace {

std::vector<size_t> indicesOf(ValueRange values,
                              const llvm::DenseMap<Operation *, size_t> &idx) {
  std::vector<size_t> out;
  for (Value v : values)
    out.push_back(idx.lookup(v.getDefiningOp()));
  return out;
}

/// The fields processes and interactions share (MultiNet_ProcessFields).
template <typename OpT> void readFields(OpT op, Process &p) {
  p.pinned = coordsOf(op.getPinnedAttr());
  p.units = op.getUnits() ? int64_t(*op.getUnits())
                          : std::max<int64_t>(1, int64_t(p.pinned.size()));
  p.cycles = int64_t(op.getCycles());
  p.macs = int64_t(op.getMacs());
  p.outputBytes = int64_t(op.getOutputBytes());
  p.staticBytes = int64_t(op.getStaticBytes());
}

} // namespace

PlanIR readPlan(PlanOp op) {
  PlanIR ir;
  ir.plan.grid = {int64_t(op.getCols()), int64_t(op.getRows())};
  ir.plan.memoryBytes = op.getMemoryBytes() ? int64_t(*op.getMemoryBytes()) : 0;
  llvm::DenseMap<Operation *, size_t> idx;
  for (Operation &o : op.getBody().front())
    if (isa<ProcessOp, InteractionOp>(o)) {
      idx[&o] = ir.ops.size();
      ir.ops.push_back(&o);
    }
  for (Operation *o : ir.ops) {
    Process p;
    if (auto proc = dyn_cast<ProcessOp>(o)) {
      p.network = proc.getNetwork().str();
      p.name = proc.getLabel().str();
      p.inputs = indicesOf(proc.getInputs(), idx);
      p.targets = coordsOf(proc.getTargetsAttr());
      if (auto net = SymbolTable::lookupNearestSymbolFrom<NetworkOp>(
              proc, proc.getNetworkAttr()))
        p.arrival = int64_t(net.getArrival());
      readFields(proc, p);
    } else {
      auto x = cast<InteractionOp>(o);
      p.network = x.getLabel().str();
      p.interaction = true;
      p.inputs = indicesOf(x.getInputs(), idx);
      p.between = indicesOf(x.getBetween(), idx);
      readFields(x, p);
    }
    ir.plan.processes.push_back(std::move(p));
  }
  return ir;
}

FailureOr<std::optional<Schedule>> readSchedule(const PlanIR &ir) {
  Schedule s;
  for (Operation *o : ir.ops) {
    auto placement = o->getAttrOfType<PlacementAttr>("placement");
    if (!placement)
      return std::optional<Schedule>();
    std::vector<int64_t> units;
    for (const Coord &c : placement.getUnits()) {
      if (!ir.plan.grid.contains(c))
        return o->emitOpError("placed on ")
               << str(c) << ", outside the " << ir.plan.grid.cols << "x"
               << ir.plan.grid.rows << " grid";
      units.push_back(ir.plan.grid.index(c));
    }
    std::sort(units.begin(), units.end());
    s.time.push_back(placement.getTime() - 1);
    s.units.push_back(std::move(units));
  }
  for (size_t p = 0; p < s.time.size(); ++p) {
    if (auto x = dyn_cast<InteractionOp>(ir.ops[p]); x && x.getRepaired())
      s.repaired.push_back(p);
    if (size_t(s.time[p]) >= s.at.size())
      s.at.resize(size_t(s.time[p]) + 1);
    s.at[size_t(s.time[p])].push_back(p);
  }
  addTransfers(ir.plan, s);
  return std::optional<Schedule>(std::move(s));
}

std::vector<std::vector<Coord>> readPowerOff(PlanOp op, int64_t timeUnits) {
  std::vector<std::vector<Coord>> sets(size_t(std::max<int64_t>(0, timeUnits)));
  for (auto off : op.getBody().front().getOps<PowerOffOp>()) {
    size_t t = size_t(off.getTime()) - 1;
    if (t >= sets.size())
      sets.resize(t + 1);
    for (const Coord &c : off.getUnits().getCoords())
      sets[t].push_back(c);
  }
  return sets;
}

Operation *opNamedIn(PlanOp op, const PlanIR &ir, llvm::StringRef msg) {
  Operation *best = op;
  size_t bestPos = llvm::StringRef::npos;
  for (auto [i, p] : llvm::enumerate(ir.plan.processes)) {
    std::string label = p.label();
    for (size_t pos = msg.find(label); pos != llvm::StringRef::npos;
         pos = msg.find(label, pos + 1)) {
      // A whole label: "A.L1" must not match inside "A.L10".
      char next =
          pos + label.size() < msg.size() ? msg[pos + label.size()] : ' ';
      if (next != ' ' && next != ':' && next != ',' && next != ')')
        continue;
      if (pos < bestPos) {
        bestPos = pos;
        best = ir.ops[i];
      }
      break;
    }
  }
  return best;
}

UnitsAttr unitsAttr(MLIRContext *ctx, const Grid &grid,
                    llvm::ArrayRef<int64_t> units) {
  SmallVector<Coord> coords;
  for (int64_t u : units)
    coords.push_back(grid.coord(u));
  return UnitsAttr::get(ctx, coords);
}

} // namespace accel::multinet
