//===- ImportControl.cpp - ONNX If, resolved at compile time --------------===//
//
// The accelerator runs one static command stream, so control flow has to
// disappear at compile time. Exporters use `If` for configuration, not for
// data: Silero-VAD style models pick the 16 kHz or the 8 kHz network from a
// scalar sample-rate input, others test a static shape. The condition must
// therefore fold (an initializer, a `--bind`-bound input, or shape / integer
// arithmetic ImportFold.cpp evaluates); the branch it selects is imported
// inline, with its nodes named "<If name>/<node name>", and the other branch
// is never looked at beyond the ONNX checker (it may use operators the
// importer does not support). Names a branch defines shadow outer ones until
// the branch ends; its outputs become the If node's outputs, constants
// staying constants so that nested conditions fold too.
//
//===----------------------------------------------------------------------===//
#include "ImporterImpl.h"

#include "mlir/IR/Value.h"

#include <optional>

using namespace mlir;
using namespace accel::onnximport;

namespace {
void graphCaptures(const onnx::GraphProto &g, std::set<std::string> &out) {
  std::set<std::string> local, used;
  for (const auto &t : g.initializer())
    local.insert(t.name());
  for (const auto &in : g.input())
    local.insert(in.name());
  for (const Node &n : g.node()) {
    for (const std::string &o : n.output())
      local.insert(o);
    for (const std::string &in : n.input())
      if (!in.empty())
        used.insert(in);
    subgraphCaptures(n, used);
  }
  for (const auto &o : g.output())
    used.insert(o.name());
  for (const std::string &u : used)
    if (!local.count(u))
      out.insert(u);
}

/// The shape of a value, whatever holds it (runtime value, constant,
/// initializer, input usable only through its shape).
std::optional<SmallVector<int64_t>> slotShape(const Slot &s) {
  if (s.badType)
    return s.badShape;
  if (s.value)
    return SmallVector<int64_t>(
        cast<RankedTensorType>(s.value.getType()).getShape());
  if (s.cst)
    return s.cst->shape;
  if (s.tensor)
    return SmallVector<int64_t>(s.tensor->dims().begin(),
                                s.tensor->dims().end());
  return std::nullopt;
}
} // namespace

void accel::onnximport::subgraphCaptures(const onnx::NodeProto &n,
                                         std::set<std::string> &out) {
  for (const auto &a : n.attribute()) {
    if (a.has_g())
      graphCaptures(a.g(), out);
    for (const auto &g : a.graphs())
      graphCaptures(g, out);
  }
}

LogicalResult
Importer::importNodes(const google::protobuf::RepeatedPtrField<Node> &nodes,
                      const std::set<std::string> &ownConstants) {
  for (int i = 0; i < nodes.size(); ++i)
    nodeIndex[&nodes.Get(i)] = i;
  SmallVector<size_t> order;
  auto visible = [&](const std::string &name) { return values.count(name); };
  if (failed(sortNodes(nodes, ownConstants, visible, order)))
    return failure();
  // A condition fed by a runtime input fails first in the node computing it
  // (e.g. Equal on an INT64 input): name the If and the inputs to bind
  // instead, before importing anything.
  for (const Node &n : nodes) {
    if (n.op_type() != "If" || n.input_size() < 1 ||
        !(n.domain().empty() || n.domain() == "ai.onnx"))
      continue;
    std::vector<std::string> deps = conditionInputs(n, nodes);
    if (deps.empty())
      continue;
    std::string names, binds;
    for (const std::string &d : deps) {
      names += (names.empty() ? "'" : ", '") + d + "'";
      binds += " --bind " + d + "=FILE.pb";
    }
    return failNode(n, "condition '" + n.input(0) +
                           "' is not a compile-time constant: it depends "
                           "on graph input" +
                           (deps.size() > 1 ? "s " : " ") + names +
                           " (bind the inputs it depends on:" + binds + ")");
  }
  for (size_t i : order) {
    curIndex = i;
    if (failed(importNode(nodes.Get(i))))
      return failure();
  }
  return success();
}

std::vector<std::string> Importer::conditionInputs(
    const Node &n, const google::protobuf::RepeatedPtrField<Node> &nodes) {
  std::unordered_map<std::string, const Node *> producer;
  for (const Node &m : nodes)
    for (const std::string &o : m.output())
      producer[o] = &m;
  std::vector<std::string> found;
  std::set<std::string> seen;
  std::function<void(const std::string &)> walk = [&](const std::string &v) {
    if (v.empty() || !seen.insert(v).second)
      return;
    if (auto p = producer.find(v); p != producer.end()) {
      const Node &m = *p->second;
      if (m.op_type() == "Shape" || m.op_type() == "Size")
        return; // static shapes: folds for any input
      // CastLike reads only the type of its second input; a nested If
      // only its condition (its branch is not known yet).
      int count = m.op_type() == "CastLike" || m.op_type() == "If"
                      ? std::min(1, m.input_size())
                      : m.input_size();
      for (int k = 0; k < count; ++k)
        walk(m.input(k));
      return;
    }
    auto s = values.find(v);
    if (s != values.end() &&
        (s->second.badType ||
         (s->second.value && isa<BlockArgument>(s->second.value))))
      found.push_back(v);
  };
  walk(n.input(0));
  return found;
}

LogicalResult Importer::importIf(const Node &n) {
  if (failed(checkArity(n, 1, 1, INT32_MAX)))
    return failure();
  auto cond = constant(n, 0);
  if (failed(cond))
    return failure();
  if (!*cond)
    return failNode(n, "condition '" + n.input(0) +
                           "' is not a compile-time constant (bind the "
                           "inputs it depends on with --bind)");
  if ((*cond)->size() != 1)
    return failNode(n, "condition '" + n.input(0) + "' has " +
                           std::to_string((*cond)->size()) +
                           " elements, expected 1");
  std::string label = (*cond)->getF(0) != 0 ? "then_branch" : "else_branch";
  const onnx::AttributeProto *a = attr(n, label);
  if (!a)
    return failNode(n, "the " + label + " attribute is missing");
  if (failed(attrType(n, a, onnx::AttributeProto::GRAPH)))
    return failure();
  auto outs = importBranch(n, a->g(), label);
  if (failed(outs))
    return failure();
  if ((int)outs->size() != n.output_size())
    return failNode(n, "the " + label + " has " + std::to_string(outs->size()) +
                           " outputs, the node " +
                           std::to_string(n.output_size()));
  for (int k = 0; k < n.output_size(); ++k)
    if (!n.output(k).empty())
      values[n.output(k)] = (*outs)[k];
  return success();
}

FailureOr<SmallVector<Slot>> Importer::importBranch(const Node &ifNode,
                                                    const onnx::GraphProto &g,
                                                    const std::string &label) {
  if (g.input_size())
    return failNode(ifNode, "the " + label + " has " +
                                std::to_string(g.input_size()) +
                                " inputs (If branches take none)");
  if (g.sparse_initializer_size())
    return failNode(ifNode, "sparse initializer '" +
                                g.sparse_initializer(0).values().name() +
                                "' in the " + label + " is not supported");
  std::set<std::string> own, local;
  for (const auto &t : g.initializer()) {
    if (!own.insert(t.name()).second)
      return failNode(ifNode, "initializer '" + t.name() + "' of the " + label +
                                  " is defined more than once");
    local.insert(t.name());
  }
  for (const Node &m : g.node())
    for (const std::string &o : m.output())
      if (!o.empty())
        local.insert(o);

  // Hide the outer values the branch shadows; they come back at its end.
  std::vector<std::pair<std::string, std::optional<Slot>>> shadowed;
  for (const std::string &name : local) {
    auto it = values.find(name);
    if (it == values.end()) {
      shadowed.emplace_back(name, std::nullopt);
      continue;
    }
    shadowed.emplace_back(name, it->second);
    values.erase(it);
  }
  for (const auto &t : g.initializer())
    values[t.name()] = Slot{Value(), &t, nullptr, 0, {}};

  std::string outerPrefix = scopePrefix;
  scopePrefix = nodeName(ifNode) + "/";
  LogicalResult imported = importNodes(g.node(), own);
  SmallVector<Slot> outs;
  for (const auto &o : g.output()) {
    if (failed(imported))
      break;
    auto it = values.find(o.name());
    if (it == values.end()) {
      imported = failNode(ifNode, "output '" + o.name() + "' of the " + label +
                                      " is not produced by the branch or "
                                      "visible from outside it");
      break;
    }
    outs.push_back(it->second);
    if (!o.has_type() || !o.type().has_tensor_type() ||
        !o.type().tensor_type().has_shape())
      continue;
    // Declared static dimensions must hold (symbolic ones are free).
    auto shape = slotShape(it->second);
    const auto &dims = o.type().tensor_type().shape().dim();
    bool ok = !shape || dims.size() == (int)shape->size();
    for (int d = 0; ok && shape && d < dims.size(); ++d)
      if (dims.Get(d).has_dim_value() && dims.Get(d).dim_value() > 0 &&
          dims.Get(d).dim_value() != (*shape)[d])
        ok = false;
    if (!ok)
      imported = failNode(ifNode, "output '" + o.name() + "' of the " + label +
                                      " has shape " + shapeStr(*shape) +
                                      ", which does not match its declaration");
  }
  scopePrefix = outerPrefix;
  for (auto &[name, old] : shadowed) {
    values.erase(name);
    if (old)
      values[name] = *old;
  }
  if (failed(imported))
    return failure();
  return outs;
}
