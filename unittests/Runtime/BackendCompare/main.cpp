//===- main.cpp - amp-backend-compare: run the registered cases -----------===//
//
//   amp-backend-compare [--ref LIB] [--cuda LIB | --host LIB] [--list]
//                       [FILTER...]
//
// Runs every case whose name contains one of the FILTERs (all without one)
// on libamp_runtime_ref and libamp_runtime_cuda (by default the ones in
// ../lib next to this program, or in $AMP_RUNTIME_DIR). Prints one line per
// case and a summary; exits 0 when every check passed, 1 on a failure, 77
// (skipped, for lit and CTest) when no CUDA device is visible.
//
// --host LIB compares the reference with a backend that runs on the host
// (the cpu backend) in place of the CUDA one, with no GPU: the suite runs
// every case that way, so that a case calling a kernel wrongly (an op
// number that has since become valid, an argument a kernel rejects) shows
// without a GPU. Cases about CUDA's deferred errors are skipped there.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace amp::compare;

namespace {

std::map<std::string, CaseFn> &registry() {
  static std::map<std::string, CaseFn> cases;
  return cases;
}

std::string defaultLibDir() {
  if (const char *env = std::getenv("AMP_RUNTIME_DIR"); env && *env)
    return env;
  char path[4096];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0)
    return "lib";
  path[n] = 0;
  std::string exe(path);
  return exe.substr(0, exe.rfind('/')) + "/../lib";
}

} // namespace

CaseRegistration::CaseRegistration(const char *name, CaseFn fn) {
  registry()[name] = fn;
}

int main(int argc, char **argv) {
  std::string dir = defaultLibDir();
  std::string refPath = dir + "/libamp_runtime_ref.so";
  std::string cudaPath = dir + "/libamp_runtime_cuda.so";
  std::vector<std::string> filters;
  bool list = false, host = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--ref") && i + 1 < argc)
      refPath = argv[++i];
    else if (!std::strcmp(argv[i], "--cuda") && i + 1 < argc)
      cudaPath = argv[++i];
    else if (!std::strcmp(argv[i], "--host") && i + 1 < argc)
      cudaPath = argv[++i], host = true;
    else if (!std::strcmp(argv[i], "--list"))
      list = true;
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "amp-backend-compare: unknown option %s\n",
                   argv[i]);
      return 2;
    } else
      filters.push_back(argv[i]);
  }
  if (list) {
    for (auto &[name, fn] : registry())
      std::printf("%s\n", name.c_str());
    return 0;
  }

  int devices = 0;
  cudaError_t error = host ? cudaSuccess : cudaGetDeviceCount(&devices);
  if (!host && (error != cudaSuccess || devices == 0)) {
    std::printf("amp-backend-compare: skipped: no CUDA device (%s)\n",
                error == cudaSuccess ? "none found"
                                     : cudaGetErrorString(error));
    return 77;
  }

  std::unique_ptr<Backend> ref, dev;
  try {
    ref = Backend::load("reference", refPath);
    dev = Backend::load(host ? "host" : "cuda", cudaPath);
  } catch (const CaseFailure &f) {
    std::fprintf(stderr, "amp-backend-compare: %s\n", f.message.c_str());
    return 1;
  }

  int ran = 0, failed = 0, checks = 0, skipped = 0;
  for (auto &[name, fn] : registry()) {
    bool selected = filters.empty();
    for (const std::string &f : filters)
      selected |= name.find(f) != std::string::npos;
    if (!selected)
      continue;
    Context c;
    c.ref = ref.get();
    c.dev = dev.get();
    c.caseName = name;
    c.deferredErrors = !host;
    try {
      fn(c);
    } catch (const CaseFailure &f) {
      c.fail(f.message);
    }
    if (!c.skipped.empty()) {
      ++skipped;
      std::printf("SKIP %s (%s)\n", name.c_str(), c.skipped.c_str());
      continue;
    }
    ++ran;
    checks += c.checks;
    if (c.failures) {
      ++failed;
      std::printf("FAIL %s (%d of %d checks)\n", name.c_str(), c.failures,
                  c.checks);
    } else {
      std::printf("PASS %s (%d checks)\n", name.c_str(), c.checks);
    }
    std::fflush(stdout);
  }
  std::printf("amp-backend-compare: %d cases, %d failed, %d checks%s\n", ran,
              failed, checks,
              skipped ? (", " + std::to_string(skipped) + " skipped").c_str()
                      : "");
  return failed || ran == 0 ? 1 : 0;
}
