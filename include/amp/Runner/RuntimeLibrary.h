//===- RuntimeLibrary.h - find and load a runtime backend -------*- C++ -*-===//
//
// A backend (libamp_runtime_ref.so, libamp_runtime_cuda.so) is chosen at run
// time, so the runner loads it with dlopen (RTLD_GLOBAL: JIT-compiled or
// ahead-of-time compiled steps then resolve their runtime calls against it)
// and resolves the entry points it calls itself with the runtime's own
// prototypes from kernels.h and gemm.h, so that a changed prototype fails to
// compile here instead of being called wrongly.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_RUNTIMELIBRARY_H
#define AMP_RUNNER_RUNTIMELIBRARY_H

#include "amp/Runner/Status.h"

#include "amp_runtime/gemm.h"
#include "amp_runtime/kernels.h"

#include <string>
#include <vector>

namespace amp::runner {

/// The environment variable naming a directory that holds the runtime
/// libraries; searched after --runtime-lib and before the tools' own layout.
inline constexpr const char *kRuntimeDirEnvVar = "AMP_RUNTIME_DIR";

/// "libamp_runtime_ref.so" for "reference", "libamp_runtime_cpu.so" for
/// "cpu", "libamp_runtime_cuda.so" for "cuda"; an error for any other
/// backend.
StatusOr<std::string> runtimeLibraryFileName(const std::string &backend);

/// The directories searched for a backend library when no path is given:
/// $AMP_RUNTIME_DIR, then the runtime directory relative to `executableDir`
/// in the build tree and in an install tree (both configured by CMake).
std::vector<std::string> runtimeSearchDirs(const std::string &executableDir);

/// The runtime library to load: `explicitPath` as given when not empty (a
/// bare file name becomes "./name", so that dlopen loads that file and does
/// not search the library path), otherwise the first existing
/// `runtimeSearchDirs(executableDir)/<file>`. An empty `backend` is the
/// default: cpu where its library is found, else reference.
StatusOr<std::string> findRuntimeLibrary(const std::string &backend,
                                         const std::string &explicitPath,
                                         const std::string &executableDir);

/// The directory of the running executable ("" when it cannot be found).
std::string currentExecutableDir();

/// A loaded backend and the entry points the runner calls. It stays loaded
/// for the life of the process (compiled steps link against it).
class RuntimeLibrary {
public:
  static StatusOr<RuntimeLibrary> load(const std::string &path);

  const std::string &getPath() const { return path; }

  decltype(&amp_alloc) alloc = nullptr;
  decltype(&amp_free) free = nullptr;
  decltype(&amp_host_alloc) hostAlloc = nullptr;
  decltype(&amp_host_free) hostFree = nullptr;
  decltype(&amp_memcpy) memcpy = nullptr;
  decltype(&amp_synchronize) synchronize = nullptr;
  decltype(&amp_kernel_last_error) kernelLastError = nullptr;
  decltype(&amp_gemm_last_error) gemmLastError = nullptr;
  decltype(&amp_gemm_backend_name) backendName = nullptr;
  decltype(&amp_memory_get_stats) memoryStats = nullptr;
  decltype(&amp_memory_reset_peak) memoryResetPeak = nullptr;
  decltype(&amp_graph_begin_capture) graphBeginCapture = nullptr;
  decltype(&amp_graph_end_capture) graphEndCapture = nullptr;
  decltype(&amp_graph_launch) graphLaunch = nullptr;
  decltype(&amp_graph_destroy) graphDestroy = nullptr;

  /// The kernels' last error, else the GEMM's, else "unknown error".
  std::string lastError() const;

private:
  std::string path;
};

} // namespace amp::runner

#endif // AMP_RUNNER_RUNTIMELIBRARY_H
