//===- PlanFile.h - Helpers shared by the plan file's readers ---*- C++ -*-===//
#ifndef ACCEL_LIB_MULTINET_PLANFILE_H
#define ACCEL_LIB_MULTINET_PLANFILE_H

#include <string>

namespace accel::multinet {

/// 1 to 64 letters, digits, '_' or '-': a network or interaction name.
bool validPlanName(const std::string &s);
/// A regular file exists at `p`.
bool isPlanFile(const std::string &p);

} // namespace accel::multinet

#endif
