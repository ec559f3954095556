//===- NetworkPlan.cpp - The networks of accel-compile --networks ---------===//
#include "accel/MultiNet/NetworkPlan.h"
#include "PlanFile.h"

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/stat.h>

namespace accel::multinet {

using json = nlohmann::json;

std::string unknownPlanKey(const nlohmann::json &j,
                           std::initializer_list<const char *> known) {
  if (!j.is_object())
    return "";
  for (auto &[key, value] : j.items()) {
    bool isKnown = false;
    for (const char *k : known)
      isKnown |= key == k;
    if (isKnown)
      continue;
    std::string list;
    for (const char *k : known)
      list += std::string(list.empty() ? "" : ", ") + "\"" + k + "\"";
    return "unknown key \"" + key + "\" (known: " + list + ")";
  }
  return "";
}

bool validPlanName(const std::string &s) {
  if (s.empty() || s.size() > 64)
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
      return false;
  return true;
}

namespace {

std::string folderOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

} // namespace

bool isPlanFile(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

namespace {

bool readEntry(const json &j, const std::string &folder, size_t i,
               NetworkEntry &e, std::string &err) {
  std::string where = "networks[" + std::to_string(i) + "]";
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string() ||
      !j.contains("model") || !j["model"].is_string()) {
    err = where + ": needs \"name\" and \"model\" strings";
    return false;
  }
  e.name = j["name"].get<std::string>();
  if (!validPlanName(e.name)) {
    err = where + ": name '" + e.name +
          "' must be 1 to 64 letters, digits, '_' or '-'";
    return false;
  }
  where = "network " + e.name;
  if (std::string why = unknownPlanKey(
          j, {"name", "model", "arrival", "input_shapes", "clusters"});
      !why.empty()) {
    err = where + ": " + why;
    return false;
  }
  std::string model = j["model"].get<std::string>();
  e.model = !model.empty() && model[0] == '/' ? model : folder + model;
  if (!isPlanFile(e.model)) {
    err = where + ": model '" + e.model + "' is not a file";
    return false;
  }
  if (j.contains("arrival") &&
      !(j["arrival"].is_number_integer() && j["arrival"].get<int64_t>() == 0)) {
    err = where +
          ": \"arrival\" is when the network's input arrives, a "
          "property of a run: give it to accel-run --arrival " +
          e.name + "=CYCLES";
    return false;
  }
  if (j.contains("input_shapes")) {
    if (!j["input_shapes"].is_object()) {
      err = where + ": \"input_shapes\" must map input names to shapes";
      return false;
    }
    for (auto &[name, dims] : j["input_shapes"].items()) {
      std::vector<int64_t> shape;
      bool ok = dims.is_array() && !dims.empty();
      for (const json &d : dims)
        ok = ok && d.is_number_integer() && d.get<int64_t>() > 0 &&
             (shape.push_back(d.get<int64_t>()), true);
      if (!ok) {
        err = where + ": input shape of '" + name +
              "' must be a list of positive integers";
        return false;
      }
      e.inputShapes[name] = shape;
    }
  }
  if (j.contains("clusters")) {
    const json &c = j["clusters"];
    if (std::string why = unknownPlanKey(c, {"row", "col", "rows", "cols"});
        !why.empty()) {
      err = where + ": \"clusters\": " + why;
      return false;
    }
    std::vector<uint32_t> rect;
    for (const char *k : {"row", "col", "rows", "cols"}) {
      if (!c.is_object() || !c.contains(k) || !c[k].is_number_integer() ||
          c[k].get<int64_t>() < 0 || c[k].get<int64_t>() > 4096) {
        err = where + ": \"clusters\" needs integers row, col, rows, cols";
        return false;
      }
      rect.push_back(uint32_t(c[k].get<int64_t>()));
    }
    e.clusters = rect;
  }
  return true;
}

} // namespace

bool readNetworkPlan(const std::string &path, NetworkPlanFile &plan,
                     std::string &err) {
  std::ifstream f(path);
  if (!f) {
    err = "cannot read plan '" + path + "'";
    return false;
  }
  json j = json::parse(f, nullptr, /*allow_exceptions=*/false);
  std::string where = path + ": ";
  if (j.is_discarded() || !j.is_object()) {
    err = where + "not a JSON object";
    return false;
  }
  if (std::string why = unknownPlanKey(j, {"networks", "interactions"});
      !why.empty()) {
    err = where + why;
    return false;
  }
  if (!j.contains("networks") || !j["networks"].is_array() ||
      j["networks"].empty()) {
    err = where + "needs a non-empty \"networks\" list";
    return false;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < j["networks"].size(); ++i) {
    NetworkEntry e;
    if (!readEntry(j["networks"][i], folderOf(path), i, e, err)) {
      err = where + err;
      return false;
    }
    if (!names.insert(e.name).second) {
      err = where + "two networks are named '" + e.name + "'";
      return false;
    }
    plan.networks.push_back(std::move(e));
  }
  if (j.contains("interactions") &&
      !readInteractions(j["interactions"], folderOf(path), plan.networks,
                        plan.interactions, err)) {
    err = where + err;
    return false;
  }
  return true;
}

bool planRectangles(const NetworkPlanFile &plan, uint32_t rows, uint32_t cols,
                    std::vector<std::vector<uint32_t>> &rects,
                    std::string &err) {
  size_t n = plan.networks.size(), given = 0;
  for (const NetworkEntry &e : plan.networks)
    given += e.clusters.has_value();
  rects.clear();
  if (given == 0) {
    bool byRows = rows % n == 0, byCols = cols % n == 0;
    if (!byRows && !byCols) {
      err = std::to_string(n) + " networks do not divide the " +
            std::to_string(rows) + "x" + std::to_string(cols) +
            " grid into equal strips: give each its \"clusters\"";
      return false;
    }
    for (uint32_t i = 0; i < n; ++i)
      rects.push_back(byRows ? std::vector<uint32_t>{i * uint32_t(rows / n), 0,
                                                     uint32_t(rows / n), cols}
                             : std::vector<uint32_t>{0, i * uint32_t(cols / n),
                                                     rows, uint32_t(cols / n)});
    return true;
  }
  if (given != n) {
    err = "give every network its \"clusters\", or none";
    return false;
  }
  std::vector<std::string> owner(size_t(rows) * cols);
  for (const NetworkEntry &e : plan.networks) {
    const std::vector<uint32_t> &r = *e.clusters;
    if (r[2] == 0 || r[3] == 0 || r[0] + r[2] > rows || r[1] + r[3] > cols) {
      err = "network " + e.name + ": its clusters leave the " +
            std::to_string(rows) + "x" + std::to_string(cols) + " grid";
      return false;
    }
    for (uint32_t y = r[0]; y < r[0] + r[2]; ++y)
      for (uint32_t x = r[1]; x < r[1] + r[3]; ++x) {
        std::string &o = owner[size_t(y) * cols + x];
        if (!o.empty()) {
          err = "networks " + o + " and " + e.name + " share cluster (" +
                std::to_string(y) + ", " + std::to_string(x) + ")";
          return false;
        }
        o = e.name;
      }
    rects.push_back(r);
  }
  return true;
}

} // namespace accel::multinet
