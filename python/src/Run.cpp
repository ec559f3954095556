//===- Run.cpp - accel._accel.run -----------------------------------------===//
//
// What accel-run does for one run, in memory: the numpy inputs are checked
// against the program's symbols (name, shape, element type) before the
// simulator sees them, so a mistake names the input and what it expects;
// the simulation runs without the GIL; the outputs come back as numpy
// arrays of their declared types (float32, bool, int32, int64) and the
// statistics as stats.json's text (accel/Sim/Simulator.h,
// statsToJson), which the Python side parses. A report directory gets
// accel-run --report's page (accel/Report/Report.h).
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"
#include "accel/Report/Report.h"
#include "accel/Sim/Simulator.h"
#include "accel/Sim/TensorIO.h"
#include "accel/Target/Validate.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <type_traits>

using namespace accelpy;

namespace {
std::string inputNames(const accel::Program &p) {
  std::string names;
  for (const accel::Symbol &s : p.symbols)
    if (s.isInput)
      names += (names.empty() ? "" : ", ") + s.name;
  return names.empty() ? "none" : names;
}

/// The numpy dtype an input symbol accepts (integers of any width for the
/// integer symbols, as accel-run accepts any integer file).
bool acceptsDtype(accel::DType want, const py::dtype &got) {
  switch (want) {
  case accel::DType::I32:
  case accel::DType::I64:
  case accel::DType::I8:
    return got.kind() == 'i' || got.kind() == 'u';
  case accel::DType::I1:
    return got.kind() == 'b';
  default:
    return got.kind() == 'f' && got.itemsize() == 4;
  }
}

const char *numpyName(accel::DType t) {
  switch (t) {
  case accel::DType::I32:
    return "int32";
  case accel::DType::I64:
    return "int64";
  case accel::DType::I8:
    return "int8";
  case accel::DType::I1:
    return "bool";
  default:
    return "float32";
  }
}

accel::DType sourceDtype(const py::dtype &d) {
  if (d.kind() == 'b')
    return accel::DType::I1;
  if (d.kind() == 'i' || d.kind() == 'u')
    return d.itemsize() <= 1   ? accel::DType::I8
           : d.itemsize() <= 4 ? accel::DType::I32
                               : accel::DType::I64;
  return accel::DType::F32;
}

/// One numpy input as the simulator's tensor, checked against `s`.
accel::Tensor toTensor(const accel::Symbol &s, const py::handle &value) {
  if (!py::isinstance<py::array>(value))
    throw Error(ErrorKind::Input, "input '" + s.name +
                                      "': expected a numpy "
                                      "array, got " +
                                      std::string(py::str(value.get_type())));
  py::array a = py::reinterpret_borrow<py::array>(value);
  std::string expect = accel::shapeToString(s.shape) + " " + numpyName(s.dtype);
  if (!acceptsDtype(s.dtype, a.dtype()))
    throw Error(ErrorKind::Input, "input '" + s.name + "' has dtype " +
                                      std::string(py::str(a.dtype())) +
                                      ", expected " + expect);
  accel::Tensor t;
  t.shape.assign(a.shape(), a.shape() + a.ndim());
  if (t.shape != s.shape)
    throw Error(ErrorKind::Input, "input '" + s.name + "' has shape " +
                                      accel::shapeToString(t.shape) +
                                      ", expected " + expect);
  t.dtype = sourceDtype(a.dtype());
  auto values =
      py::array_t<float, py::array::c_style | py::array::forcecast>(a);
  t.data.assign(values.data(), values.data() + values.size());
  return t;
}

std::map<std::string, accel::Tensor> toInputs(const accel::Program &p,
                                              const py::dict &inputs) {
  std::map<std::string, accel::Tensor> out;
  for (auto [key, value] : inputs) {
    std::string name = py::str(key);
    const accel::Symbol *sym = nullptr;
    for (const accel::Symbol &s : p.symbols)
      if (s.isInput && s.name == name)
        sym = &s;
    if (!sym)
      throw Error(ErrorKind::Input,
                  "unknown input '" + name +
                      "'; the program's inputs: " + inputNames(p));
    out[name] = toTensor(*sym, value);
  }
  for (const accel::Symbol &s : p.symbols)
    if (s.isInput && !out.count(s.name))
      throw Error(ErrorKind::Input,
                  "missing input '" + s.name + "' (" +
                      accel::shapeToString(s.shape) + " " + numpyName(s.dtype) +
                      "); the program's inputs: " + inputNames(p));
  return out;
}

template <class T> py::array typedArray(const accel::Tensor &t) {
  py::array_t<T> a(t.shape);
  T *dst = a.mutable_data();
  for (size_t i = 0; i < t.data.size(); ++i)
    if constexpr (std::is_same_v<T, bool>)
      dst[i] = t.data[i] != 0.0f; // NaN is true, as numpy's astype(bool)
    else
      dst[i] = T(t.data[i]); // exact: checkDTypeValues
  return a;
}

/// One output as a numpy array of its declared type (numpyName: float32,
/// bool, int8, int32 or int64), as accel-run writes it (TensorIO.h); an
/// integer value that is not exact raises SimulationError naming the
/// output and the element.
py::array toArray(const std::string &name, const accel::Tensor &t) {
  std::string err;
  if (!accel::checkDTypeValues(t, err))
    throw Error(ErrorKind::Simulation, "output '" + name + "': " + err);
  switch (t.dtype) {
  case accel::DType::I1:
    return typedArray<bool>(t);
  case accel::DType::I8:
    return typedArray<int8_t>(t);
  case accel::DType::I32:
    return typedArray<int32_t>(t);
  case accel::DType::I64:
    return typedArray<int64_t>(t);
  default:
    break;
  }
  py::array_t<float> a(t.shape);
  std::copy(t.data.begin(), t.data.end(), a.mutable_data());
  return a;
}

struct RunRequest {
  std::string tracePath, reportDir, name;
  bool strict = false, gating = false, validate = true;
  unsigned dataLanes = 0; ///< SimOptions::dataLanes (0: chosen)
};

/// Validates, simulates and writes the report; throws on failure.
accel::SimStats simulate(const CompiledProgram &p,
                         const accel::HardwareDesc &hw,
                         const std::map<std::string, accel::Tensor> &inputs,
                         const RunRequest &r,
                         std::map<std::string, accel::Tensor> &outputs) {
  std::string err;
  auto invalid = [&](const std::string &msg) {
    return Error(ErrorKind::Hardware,
                 "invalid program for hardware '" + hw.name + "': " + msg);
  };
  // As accel-run: the command streams are checked on a thread of their own
  // while the simulator runs the commands already checked, and a failure
  // waits for that check (docs/simulator.md, "Eleventh round").
  std::optional<accel::StreamedValidation> check;
  if (r.validate) {
    check.emplace(p.program, hw);
    if (!check->start(err))
      throw invalid(err);
  }
  auto failChecked = [&](ErrorKind kind, const std::string &msg) {
    std::string why;
    if (check && !check->finish(why))
      return invalid(why);
    return Error(kind, msg);
  };
  accel::SimOptions opts;
  opts.tracePath = r.tracePath;
  opts.hazardsAreErrors = r.strict;
  opts.powerGating = r.gating;
  opts.dataLanes = r.dataLanes;
  if (check)
    opts.commandsChecked = check->gate();
  if (!r.reportDir.empty()) { // docs/simulator.md "HTML report"
    std::error_code ec;
    std::filesystem::create_directories(r.reportDir, ec);
    if (ec)
      throw failChecked(ErrorKind::Generic,
                        r.reportDir +
                            ": cannot create directory: " + ec.message());
    opts.timeline = true;
    if (opts.tracePath.empty())
      opts.tracePath = r.reportDir + "/trace.json";
  }
  accel::SimStats stats;
  if (!accel::simulate(p.program, hw, inputs, opts, outputs, stats, err))
    throw failChecked(ErrorKind::Simulation, err);
  if (check && !check->finish(err))
    throw invalid(err);
  if (!r.reportDir.empty() &&
      !accel::writeReport(r.reportDir, p.program, hw, stats, r.name,
                          opts.tracePath, err))
    throw Error(ErrorKind::Generic, err);
  return stats;
}
} // namespace

void accelpy::bindRun(py::module_ &m) {
  m.def(
      "run",
      [](const CompiledProgram &p, const py::dict &inputs,
         const py::object &hwJson, const std::string &trace,
         const std::string &report, const std::string &name, bool strict,
         bool gating, bool validate, unsigned dataLanes) {
        std::map<std::string, accel::Tensor> in = toInputs(p.program, inputs);
        accel::HardwareDesc hw =
            hwJson.is_none() ? p.hw
                             : hardwareFromJson(hwJson.cast<std::string>());
        if (dataLanes > accel::SimOptions::kMaxDataLanes)
          throw Error(ErrorKind::Generic,
                      "data_lanes must be from 1 to " +
                          std::to_string(accel::SimOptions::kMaxDataLanes) +
                          ", got " + std::to_string(dataLanes));
        RunRequest r{trace, report, name, strict, gating, validate, dataLanes};
        std::map<std::string, accel::Tensor> outputs;
        std::string statsJson;
        runReleased([&] {
          statsJson = accel::statsToJson(simulate(p, hw, in, r, outputs));
        });
        py::dict out;
        for (auto &[key, t] : outputs)
          out[py::str(key)] = toArray(key, t);
        return py::make_tuple(out, statsJson);
      },
      py::arg("program"), py::arg("inputs"), py::arg("hw_json") = py::none(),
      py::arg("trace") = "", py::arg("report") = "",
      py::arg("name") = "<python>", py::arg("strict_hazards") = false,
      py::arg("power_gating") = false, py::arg("validate") = true,
      py::arg("data_lanes") = 0u);
}
