//===- Interactions.cpp - The interactions of a plan file -----------------===//
//
//   {"name": "mix", "combine": "sum", "inputs": ["cnn.feat", "mlp.h"],
//    "consumers": ["cnn.feat"], "cluster": {"row": 1, "col": 1}}
//
// docs/multi-network.md "Interactions".
//
//===----------------------------------------------------------------------===//
#include "PlanFile.h"
#include "accel/MultiNet/NetworkPlan.h"

#include <nlohmann/json.hpp>

namespace accel::multinet {

using json = nlohmann::json;

namespace {

bool readRefs(const json &j, const char *key, size_t min,
              const std::vector<NetworkEntry> &networks,
              std::vector<TensorRef> &out, std::string &err) {
  if (!j.contains(key) || !j[key].is_array() || j[key].size() < min) {
    err = std::string("\"") + key + "\" must list at least " +
          std::to_string(min) + " tensors NETWORK.TENSOR";
    return false;
  }
  for (const json &r : j[key]) {
    std::string s = r.is_string() ? r.get<std::string>() : "";
    size_t dot = s.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == s.size()) {
      err = std::string("\"") + key + "\": '" + s + "' is not NETWORK.TENSOR";
      return false;
    }
    TensorRef ref{s.substr(0, dot), s.substr(dot + 1)};
    bool known = false;
    for (const NetworkEntry &n : networks)
      known = known || n.name == ref.network;
    if (!known) {
      err = std::string("\"") + key + "\": '" + s + "' names network '" +
            ref.network + "', which the plan does not list";
      return false;
    }
    out.push_back(ref);
  }
  return true;
}

bool readCombine(const json &j, const std::string &folder, InteractionEntry &e,
                 std::string &err) {
  if (j.contains("combine")) {
    if (!j["combine"].is_string()) {
      err = "\"combine\" must be sum, product, concat or onnx";
      return false;
    }
    e.combine = j["combine"].get<std::string>();
  }
  if (e.combine == "concat" && j.contains("axis")) {
    if (!j["axis"].is_number_integer()) {
      err = "\"axis\" must be an integer";
      return false;
    }
    e.axis = j["axis"].get<int64_t>();
  }
  if (e.combine == "onnx") {
    std::string model = j.contains("model") && j["model"].is_string()
                            ? j["model"].get<std::string>()
                            : "";
    e.model = !model.empty() && model[0] == '/' ? model : folder + model;
    if (model.empty() || !isPlanFile(e.model)) {
      err = "combine onnx: \"model\" '" + e.model + "' is not a file";
      return false;
    }
    return true;
  }
  if (e.combine != "sum" && e.combine != "product" && e.combine != "concat") {
    err = "\"combine\" '" + e.combine +
          "' is not one of sum, product, concat, onnx";
    return false;
  }
  return true;
}

bool readCluster(const json &j, InteractionEntry &e, std::string &err) {
  if (!j.contains("cluster"))
    return true;
  const json &c = j["cluster"];
  if (std::string why = unknownPlanKey(c, {"row", "col"}); !why.empty()) {
    err = "\"cluster\": " + why;
    return false;
  }
  std::vector<uint32_t> rc;
  for (const char *k : {"row", "col"}) {
    if (!c.is_object() || !c.contains(k) || !c[k].is_number_integer() ||
        c[k].get<int64_t>() < 0 || c[k].get<int64_t>() > 4096) {
      err = "\"cluster\" needs integers row and col";
      return false;
    }
    rc.push_back(uint32_t(c[k].get<int64_t>()));
  }
  e.cluster = rc;
  return true;
}

bool readOne(const json &j, const std::string &folder,
             const std::vector<NetworkEntry> &networks, InteractionEntry &e,
             std::string &err) {
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
    err = "needs a \"name\" string";
    return false;
  }
  e.name = j["name"].get<std::string>();
  if (!validPlanName(e.name)) {
    err = "name '" + e.name + "' must be 1 to 64 letters, digits, '_' or '-'";
    return false;
  }
  std::string why = unknownPlanKey(j, {"name", "combine", "axis", "model",
                                       "inputs", "consumers", "cluster"});
  if (!why.empty() || !readCombine(j, folder, e, why) ||
      !readRefs(j, "inputs", e.combine == "onnx" ? 1 : 2, networks, e.inputs,
                why) ||
      (j.contains("consumers") &&
       !readRefs(j, "consumers", 0, networks, e.consumers, why)) ||
      !readCluster(j, e, why)) {
    err = "interaction " + e.name + ": " + why;
    return false;
  }
  return true;
}

} // namespace

bool readInteractions(const json &list, const std::string &folder,
                      const std::vector<NetworkEntry> &networks,
                      std::vector<InteractionEntry> &out, std::string &err) {
  if (!list.is_array()) {
    err = "\"interactions\" must be a list";
    return false;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    InteractionEntry e;
    if (!readOne(list[i], folder, networks, e, err)) {
      if (err.rfind("interaction ", 0) != 0)
        err = "interactions[" + std::to_string(i) + "]: " + err;
      return false;
    }
    bool taken = false;
    for (const NetworkEntry &n : networks)
      taken = taken || n.name == e.name;
    for (const InteractionEntry &x : out)
      taken = taken || x.name == e.name;
    if (taken) {
      err = "two networks or interactions are named '" + e.name + "'";
      return false;
    }
    for (const TensorRef &c : e.consumers)
      for (const InteractionEntry &x : out)
        for (const TensorRef &d : x.consumers)
          if (c.str() == d.str()) {
            err = "interactions " + x.name + " and " + e.name +
                  " both replace " + c.str();
            return false;
          }
    out.push_back(std::move(e));
  }
  return true;
}

bool interactionClusters(const NetworkPlanFile &plan, uint32_t rows,
                         uint32_t cols,
                         const std::vector<std::vector<uint32_t>> &rects,
                         std::vector<uint32_t> &clusters, std::string &err) {
  std::vector<std::string> owner(size_t(rows) * cols);
  for (size_t n = 0; n < rects.size(); ++n)
    for (uint32_t y = rects[n][0]; y < rects[n][0] + rects[n][2]; ++y)
      for (uint32_t x = rects[n][1]; x < rects[n][1] + rects[n][3]; ++x)
        owner[size_t(y) * cols + x] = "network " + plan.networks[n].name;
  clusters.clear();
  for (const InteractionEntry &e : plan.interactions) {
    size_t c = owner.size();
    if (e.cluster) {
      uint32_t y = (*e.cluster)[0], x = (*e.cluster)[1];
      if (y >= rows || x >= cols) {
        err = "interaction " + e.name + ": cluster (" + std::to_string(y) +
              ", " + std::to_string(x) + ") leaves the " +
              std::to_string(rows) + "x" + std::to_string(cols) + " grid";
        return false;
      }
      c = size_t(y) * cols + x;
      if (!owner[c].empty()) {
        err = "interaction " + e.name + ": cluster (" + std::to_string(y) +
              ", " + std::to_string(x) + ") belongs to " + owner[c];
        return false;
      }
    } else {
      for (size_t k = 0; k < owner.size() && c == owner.size(); ++k)
        if (owner[k].empty())
          c = k;
      if (c == owner.size()) {
        err = "interaction " + e.name +
              ": every cluster belongs to a network; give the networks "
              "\"clusters\" that leave one free";
        return false;
      }
    }
    owner[c] = "interaction " + e.name;
    clusters.push_back(uint32_t(c));
  }
  return true;
}

} // namespace accel::multinet
