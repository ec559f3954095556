//===- ImportCheck.cpp - Refusing invalid ONNX before import --------------===//
//
// A model is checked before any node is imported, so invalid ONNX is an
// error instead of a silently different network (a bit flip that renames
// Gemm's `beta` would otherwise give beta = 1):
//   1. the IR version and every opset version exist in the ONNX library the
//      importer is built against, and the default domain is imported;
//   2. every attribute of a default-domain node is one its operator schema
//      (OpSchemaRegistry, for the model's opset) declares;
//   3. external data stays inside the model's directory;
//   4. the ONNX library's own model checker (onnx::checker) accepts the
//      graph: types, required attributes, names, tensors, opset imports.
// Values of attributes the importer uses are checked where it reads them.
//
//===----------------------------------------------------------------------===//
#include "ImporterImpl.h"
#include "accel/Support/FileRead.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include <map>

using namespace accel::onnximport;

namespace {

bool isDefaultDomain(const std::string &domain) {
  return domain.empty() || domain == "ai.onnx";
}

std::string
joinNames(const std::map<std::string, onnx::OpSchema::Attribute> &attrs) {
  std::string s;
  for (const auto &[name, attr] : attrs)
    s += (s.empty() ? "" : ", ") + name;
  return s.empty() ? "none" : s;
}

} // namespace

LogicalResult Importer::checkVersions(const onnx::ModelProto &model) {
  if (model.ir_version() > onnx::IR_VERSION)
    return fail("the model's IR version " + std::to_string(model.ir_version()) +
                " is newer than the ONNX library the importer is built "
                "against knows (IR version " +
                std::to_string(int(onnx::IR_VERSION)) + ")");
  const auto &ranges =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  std::map<std::string, int64_t> seen;
  bool hasDefault = false;
  for (const auto &os : model.opset_import()) {
    std::string domain = isDefaultDomain(os.domain()) ? "" : os.domain();
    std::string shown =
        os.domain().empty() ? "'' (ai.onnx)" : "'" + os.domain() + "'";
    if (!seen.emplace(domain, os.version()).second)
      return fail("the model imports an opset of domain " + shown +
                  " more than once");
    hasDefault |= domain.empty();
    auto range = ranges.find(domain);
    if (range == ranges.end())
      continue; // a custom domain: its nodes are refused as unsupported
    if (os.version() < range->second.first ||
        os.version() > range->second.second)
      return fail("opset version " + std::to_string(os.version()) +
                  " of domain " + shown + " does not exist (ONNX defines " +
                  std::to_string(range->second.first) + " to " +
                  std::to_string(range->second.second) + ")");
  }
  // Nodes of the default domain need its opset (a model of only other
  // domains, e.g. ai.onnx.preview.training, does not).
  for (const Node &n : model.graph().node())
    if (!hasDefault && isDefaultDomain(n.domain()))
      return failNode(n, "the model imports no opset of the default ONNX "
                         "domain ('' or 'ai.onnx'), so its operators have no "
                         "defined meaning");
  return mlir::success();
}

LogicalResult Importer::checkAttributeNames(const onnx::GraphProto &g) {
  for (const Node &n : g.node()) {
    if (!isDefaultDomain(n.domain()))
      continue;
    const onnx::OpSchema *schema =
        onnx::OpSchemaRegistry::Schema(n.op_type(), int(opsetVersion), "");
    if (!schema)
      return failNode(n, "operator '" + n.op_type() +
                             "' does not exist in ONNX opset " +
                             std::to_string(opsetVersion));
    std::set<std::string> names;
    for (const auto &a : n.attribute()) {
      if (!names.insert(a.name()).second)
        return failNode(n, "attribute '" + a.name() + "' is given twice");
      auto declared = schema->attributes().find(a.name());
      if (declared == schema->attributes().end())
        return failNode(
            n, "unknown attribute '" + a.name() + "' (" + n.op_type() +
                   " of opset " + std::to_string(schema->SinceVersion()) +
                   " declares: " + joinNames(schema->attributes()) + ")");
      if (failed(attrType(n, &a, declared->second.type)))
        return mlir::failure();
    }
  }
  // If branches (and Loop / Scan bodies) are checked like the main graph.
  for (const Node &n : g.node())
    for (const auto &a : n.attribute()) {
      if (a.has_g() && failed(checkAttributeNames(a.g())))
        return mlir::failure();
      for (const auto &sub : a.graphs())
        if (failed(checkAttributeNames(sub)))
          return mlir::failure();
    }
  return mlir::success();
}

LogicalResult Importer::checkExternalData(const onnx::GraphProto &g) {
  for (const onnx::TensorProto &t : g.initializer()) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL)
      continue;
    for (const auto &kv : t.external_data()) {
      if (kv.key() != "location")
        continue;
      if (baseDir.empty())
        return fail("tensor '" + t.name() + "' uses external data ('" +
                    kv.value() +
                    "'), which needs the model to be imported from a file");
      std::string resolved, why;
      if (!resolvePathInside(baseDir, kv.value(), "external data file",
                             resolved, why))
        return fail("tensor '" + t.name() + "': " + why);
    }
  }
  for (const Node &n : g.node())
    for (const auto &a : n.attribute()) {
      if (a.has_g() && failed(checkExternalData(a.g())))
        return mlir::failure();
      for (const auto &sub : a.graphs())
        if (failed(checkExternalData(sub)))
          return mlir::failure();
    }
  return mlir::success();
}

LogicalResult Importer::runOnnxChecker(const onnx::ModelProto &model,
                                       ArrayRef<size_t> order) {
  // The checker wants nodes in topological order; the importer sorts them
  // itself, so an unsorted graph is checked as a sorted copy.
  bool sorted = true;
  for (size_t i = 0; i < order.size(); ++i)
    sorted &= order[i] == i;
  if (!sorted) {
    onnx::ModelProto copy = model;
    auto *nodes = copy.mutable_graph()->mutable_node();
    nodes->Clear();
    for (size_t i : order)
      *nodes->Add() = model.graph().node(int(i));
    return runOnnxChecker(copy, {});
  }
  onnx::checker::CheckerContext ctx;
  ctx.set_ir_version(int(model.ir_version()));
  std::unordered_map<std::string, int> opsets;
  for (const auto &os : model.opset_import())
    opsets[os.domain()] = int(os.version());
  ctx.set_opset_imports(opsets);
  ctx.set_model_dir(baseDir);
  // As a subgraph, graph inputs and outputs may omit their shapes (the
  // importer infers them, like onnxruntime); everything else is checked.
  ctx.set_is_main_graph(false);
  onnx::checker::LexicalScopeContext scope;
  try {
    if (model.ir_version() < 1)
      return fail("invalid ONNX model: no IR version (ir_version) is set");
    onnx::checker::check_graph(model.graph(), ctx, scope);
    if (model.ir_version() >= 8)
      onnx::checker::check_model_local_functions(model, ctx, scope);
  } catch (const std::exception &e) {
    // One line: the checker appends "\n\n==> Context: <node>".
    std::string msg;
    for (char c : std::string(e.what())) {
      if (c != '\n')
        msg += c;
      else if (!msg.empty() && msg.back() != ' ')
        msg += ' ';
    }
    while (!msg.empty() && msg.back() == ' ')
      msg.pop_back();
    return fail("invalid ONNX model (ONNX checker): " + msg);
  }
  return mlir::success();
}

LogicalResult Importer::checkModel(const onnx::ModelProto &model) {
  if (failed(checkVersions(model)) ||
      failed(checkAttributeNames(model.graph())) ||
      failed(checkExternalData(model.graph())))
    return mlir::failure();
  return mlir::success();
}
