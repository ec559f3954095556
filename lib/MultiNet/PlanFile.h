//===- PlanFile.h - Helpers shared by the plan file's readers ---*- C++ -*-===//
#ifndef ACCEL_LIB_MULTINET_PLANFILE_H
#define ACCEL_LIB_MULTINET_PLANFILE_H

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace accel::multinet {

/// 1 to 64 letters, digits, '_' or '-': a network or interaction name.
bool validPlanName(const std::string &s);
/// A regular file exists at `p`.
bool isPlanFile(const std::string &p);
/// Why object `j` has a key that is not one of `known` ("" when it has
/// none): a misspelt "clusters" was ignored, and the plan ran otherwise.
std::string unknownPlanKey(const nlohmann::json &j,
                           std::initializer_list<const char *> known);

} // namespace accel::multinet

#endif
