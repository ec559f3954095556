//===- Module.cpp - The accel._accel extension module ---------------------===//
//
// The native half of the Python package (docs/python.md): python/accel
// wraps these functions into accel.compile, Program.run, accel.opt, ...
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

PYBIND11_MODULE(_accel, m) {
  m.doc() = "accel compiler and simulator (native part of the accel package)";
  // hw/<name>.json of the source tree: accel.compile(hw="large").
  m.attr("HW_DIR") = ACCEL_HW_DIR;
  accelpy::bindErrors(m);
  // The full description (every field) of a JSON text; "" = the default.
  m.def("hardware_json", [](const std::string &json) {
    return accel::hardwareToJson(accelpy::hardwareFromJson(json));
  });
  accelpy::bindProgram(m);
  accelpy::bindCompile(m);
  accelpy::bindRun(m);
  accelpy::bindOpt(m);
}
