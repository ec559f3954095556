# lit configuration for the accel compiler tests.
import os
import lit.formats

config.name = "accel"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["unit", "fuzz", "Inputs", "lit.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.accel_obj_root, "test")

path = os.path.pathsep.join([config.accel_tools_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", "")])
config.environment["PATH"] = path
config.substitutions.append(("%hw_dir", os.path.join(config.accel_src_root, "hw")))
config.substitutions.append(("%onnx_data", "/usr/share/libonnx-testdata/data"))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%src_root", config.accel_src_root))
config.substitutions.append(("%accel_bin", config.accel_tools_dir))

# The sanitizer configuration (scripts/sanitize.sh): tests that cap the
# address space (ulimit -v) cannot run there, ASan reserves terabytes of
# shadow memory up front. They say `UNSUPPORTED: asan`.
if config.accel_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asan")

# The model zoo's reference executor: onnxruntime-node, installed by
# scripts/setup.sh into <build>/ort (or ACCEL_ORT_DIR). Tests comparing with
# it say `REQUIRES: onnxruntime`.
import shutil
ort_dir = os.environ.get("ACCEL_ORT_DIR", os.path.join(config.accel_obj_root, "ort"))
config.substitutions.append(("%ort_dir", ort_dir))
if shutil.which("node") and os.path.isdir(os.path.join(ort_dir, "node_modules",
                                                       "onnxruntime-node")):
    config.available_features.add("onnxruntime")

# Headless Chromium (Debian's `chromium`, scripts/debian-packages.txt)
# opens accel-run's HTML report: tests that load a page say
# `REQUIRES: chromium`. %obj_root is the build directory, where such a test
# keeps its screenshot.
if os.path.exists("/usr/bin/chromium"):
    config.available_features.add("chromium")
config.substitutions.append(("%obj_root", config.accel_obj_root))

# The Python package (python/, docs/python.md) is built unless the
# configuration cannot load it (sanitizers) or lacks pybind11: tests that
# import it say `REQUIRES: accel-python`; %accel_pypath is its directory.
import glob
python_dir = os.path.join(config.accel_obj_root, "python")
config.substitutions.append(("%accel_pypath", python_dir))
if glob.glob(os.path.join(python_dir, "accel", "_accel*.so")):
    config.available_features.add("accel-python")
