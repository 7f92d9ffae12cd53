# -*- Python -*-
# lit configuration for the amp test suite.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "AMP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amp_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%amp_src_root", config.amp_src_root))
config.substitutions.append(("%amp_obj_root", config.amp_obj_root))

llvm_config.with_environment("PATH", config.amp_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.amp_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["amp-compile", "amp-exec", "amp-grad-check",
                                    "amp-opt", "amp-run"],
                                   tool_dirs)
# The ONNX importer is built when Debian's libonnx-dev is found.
if config.amp_have_onnx:
    config.available_features.add("onnx")
    llvm_config.add_tool_substitutions(["amp-export-onnx", "amp-import-onnx"],
                                       tool_dirs)
    # ONNX's backend test data (scripts/get-onnx-tests.sh, run by
    # scripts/test.sh): the node-test conformance and the light models.
    if os.path.isdir(os.path.join(config.amp_src_root, "data", "onnx",
                                  "onnx", "backend", "test", "data", "node")):
        config.available_features.add("onnx-tests")
config.substitutions.append(("%python", "python3"))

# The real digits dataset (scripts/get-digits.sh, run by scripts/test.sh).
digits = os.path.join(config.amp_src_root, "data", "digits.csv")
if os.path.exists(digits):
    config.available_features.add("digits")
    config.substitutions.append(("%digits", digits))

# GPU tests need a visible NVIDIA GPU, not just the toolkit: they are
# reported as UNSUPPORTED elsewhere.
def _has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout

if _has_gpu():
    config.available_features.add("cuda")
# The CUDA backend library was built (the toolkit was found), GPU or not.
if config.amp_have_cuda:
    config.available_features.add("cuda-backend")
# The oneDNN cpu backend library was built (libdnnl-dev was found).
if config.amp_have_dnnl:
    config.available_features.add("cpu-backend")
# The compiler tools were linked with mimalloc (cmake/AmpAllocator.cmake).
if config.amp_have_mimalloc:
    config.available_features.add("mimalloc")
# The backends that run on this machine's CPU, for the integration tests that
# train on each of them in a shell loop.
config.substitutions.append(
    ("%host_backends", "reference cpu" if config.amp_have_dnnl else "reference"))
# The backend amp-run and amp-exec pick without --backend.
config.substitutions.append(
    ("%default_backend", "cpu" if config.amp_have_dnnl else "reference"))

# lit runs tests side by side, so the cpu backend's OpenMP threads share
# the cores with other tests: they sleep rather than spin while waiting.
config.environment["OMP_WAIT_POLICY"] = "passive"
if config.amp_sanitizers:
    config.available_features.add("sanitizers")
    # LeakSanitizer reports nothing useful for the JIT's deliberate leaks.
    # allow_user_poisoning=0: our instrumented code inlines LLVM's
    # BumpPtrAllocator, which poisons each new slab, while Debian's
    # uninstrumented libMLIR allocates from the same slabs without
    # unpoisoning, a false use-after-poison that depends on the layout (seen
    # parsing a generated transformer with an AsmParserState).
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
