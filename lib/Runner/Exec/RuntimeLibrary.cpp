//===- RuntimeLibrary.cpp - find and load a runtime backend ---------------===//

#include "amp/Runner/RuntimeLibrary.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

using namespace amp::runner;

// Where the runtime libraries lie relative to the tools' directory, in the
// build tree and in an install tree; lib/Runner/Exec/CMakeLists.txt
// configures both from the build's output directories and GNUInstallDirs.
#ifndef AMP_RUNTIME_DIR_FROM_BUILD_TOOLS
#error "AMP_RUNTIME_DIR_FROM_BUILD_TOOLS must be defined by the build"
#endif
#ifndef AMP_RUNTIME_DIR_FROM_INSTALLED_TOOLS
#error "AMP_RUNTIME_DIR_FROM_INSTALLED_TOOLS must be defined by the build"
#endif

StatusOr<std::string>
amp::runner::runtimeLibraryFileName(const std::string &backend) {
  if (backend == "reference")
    return std::string("libamp_runtime_ref.so");
  if (backend == "cpu")
    return std::string("libamp_runtime_cpu.so");
  if (backend == "cuda")
    return std::string("libamp_runtime_cuda.so");
  return Status::error("--backend must be cpu, reference or cuda, got '" +
                       backend + "'");
}

std::vector<std::string>
amp::runner::runtimeSearchDirs(const std::string &executableDir) {
  std::vector<std::string> dirs;
  if (const char *env = std::getenv(kRuntimeDirEnvVar); env && *env)
    dirs.push_back(env);
  if (!executableDir.empty()) {
    for (const char *relative : {AMP_RUNTIME_DIR_FROM_BUILD_TOOLS,
                                 AMP_RUNTIME_DIR_FROM_INSTALLED_TOOLS}) {
      std::string dir = executableDir + "/" + relative;
      if (dirs.empty() || dirs.back() != dir)
        dirs.push_back(dir);
    }
  }
  return dirs;
}

StatusOr<std::string>
amp::runner::findRuntimeLibrary(const std::string &backend,
                                const std::string &explicitPath,
                                const std::string &executableDir) {
  // A path as given: dlopen would search the library path for a bare file
  // name, so it is made relative to the working directory.
  if (!explicitPath.empty()) {
    if (!backend.empty())
      if (StatusOr<std::string> file = runtimeLibraryFileName(backend);
          file.failed())
        return file;
    return explicitPath.find('/') == std::string::npos ? "./" + explicitPath
                                                       : explicitPath;
  }
  // No backend named: the fast CPU backend where it was built, else the
  // reference.
  std::vector<std::string> files;
  for (const std::string &name :
       backend.empty() ? std::vector<std::string>{"cpu", "reference"}
                       : std::vector<std::string>{backend}) {
    StatusOr<std::string> file = runtimeLibraryFileName(name);
    if (file.failed())
      return file;
    files.push_back(*file);
  }
  std::string searched;
  for (const std::string &file : files)
    for (const std::string &dir : runtimeSearchDirs(executableDir)) {
      std::string path = dir + "/" + file;
      struct stat info;
      if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode))
        return path;
      if (&file == &files.front())
        searched += (searched.empty() ? "" : ", ") + dir;
    }
  return Status::error(
      "cannot find the runtime library " + files.front() +
      (files.size() > 1 ? " or " + files.back() : "") +
      " (searched: " + (searched.empty() ? "nothing" : searched) +
      "); pass --runtime-lib or set " + kRuntimeDirEnvVar);
}

std::string amp::runner::currentExecutableDir() {
  std::string path(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<size_t>(n) >= path.size())
    return "";
  path.resize(n);
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

StatusOr<RuntimeLibrary> RuntimeLibrary::load(const std::string &path) {
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle)
    return Status::error("cannot load the runtime library '" + path +
                         "': " + ::dlerror());
  RuntimeLibrary rt;
  rt.path = path;
  std::string missing;
  auto resolve = [&](auto &entry, const char *name) {
    void *symbol = ::dlsym(handle, name);
    if (!symbol && missing.empty())
      missing = name;
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
  };
  resolve(rt.alloc, "amp_alloc");
  resolve(rt.free, "amp_free");
  resolve(rt.hostAlloc, "amp_host_alloc");
  resolve(rt.hostFree, "amp_host_free");
  resolve(rt.memcpy, "amp_memcpy");
  resolve(rt.synchronize, "amp_synchronize");
  resolve(rt.kernelLastError, "amp_kernel_last_error");
  resolve(rt.gemmLastError, "amp_gemm_last_error");
  resolve(rt.backendName, "amp_gemm_backend_name");
  resolve(rt.memoryStats, "amp_memory_get_stats");
  resolve(rt.memoryResetPeak, "amp_memory_reset_peak");
  resolve(rt.graphBeginCapture, "amp_graph_begin_capture");
  resolve(rt.graphEndCapture, "amp_graph_end_capture");
  resolve(rt.graphLaunch, "amp_graph_launch");
  resolve(rt.graphDestroy, "amp_graph_destroy");
  if (!missing.empty())
    return Status::error("the runtime library '" + path + "' lacks " + missing +
                         " (this backend does not implement the kernel ABI "
                         "yet)");
  return rt;
}

std::string RuntimeLibrary::lastError() const {
  const char *kernel = kernelLastError();
  const char *gemm = gemmLastError();
  return kernel && *kernel ? kernel : gemm ? gemm : "unknown error";
}
