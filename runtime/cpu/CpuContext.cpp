//===- CpuContext.cpp - oneDNN engine, threads and scratch ----------------===//

#include "cpu/CpuContext.h"

#include <omp.h>

#include <cerrno>
#include <cstdlib>

using namespace amp::runtime::cpu;

namespace {

/// AMP_NUM_THREADS as a thread count, 0 when unset; *error says why a set
/// value is unusable.
int requestedThreads(std::string *error) {
  const char *text = std::getenv("AMP_NUM_THREADS");
  if (!text || !*text)
    return 0;
  errno = 0;
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (errno || *end || value < 1 || value > 4096) {
    *error = std::string("AMP_NUM_THREADS must be an integer in [1, 4096], "
                         "got '") +
             text + "'";
    return 0;
  }
  return static_cast<int>(value);
}

/// AMP_DETERMINISTIC as a flag; *error says why a set value is unusable.
bool requestedDeterminism(std::string *error) {
  const char *text = std::getenv("AMP_DETERMINISTIC");
  if (!text || !*text || std::string(text) == "0")
    return false;
  if (std::string(text) != "1" && error->empty())
    *error =
        std::string("AMP_DETERMINISTIC must be 0 or 1, got '") + text + "'";
  return true;
}

struct ThreadSetting {
  std::string error;
  int threads = requestedThreads(&error);
  bool deterministic = requestedDeterminism(&error);
};

const ThreadSetting &threadSetting() {
  static const ThreadSetting setting;
  return setting;
}

} // namespace

const std::string &amp::runtime::cpu::threadSettingError() {
  return threadSetting().error;
}

bool amp::runtime::cpu::deterministic() {
  return threadSetting().deterministic;
}

OneDnnThreads::OneDnnThreads() {
  if (deterministic()) {
    saved = omp_get_max_threads();
    omp_set_num_threads(1);
  }
}

OneDnnThreads::~OneDnnThreads() {
  if (saved)
    omp_set_num_threads(saved);
}

dnnl::engine &amp::runtime::cpu::engine() {
  static dnnl::engine cpuEngine(dnnl::engine::kind::cpu, 0);
  return cpuEngine;
}

void amp::runtime::cpu::applyThreadSetting() {
  // OpenMP's thread count is per calling thread: set it on each thread that
  // calls a kernel, once.
  thread_local bool applied = [] {
    if (int threads = threadSetting().threads)
      omp_set_num_threads(threads);
    return true;
  }();
  (void)applied;
}

// The thread that loads the library is usually the one that calls it.
__attribute__((constructor)) static void applyOnLoad() { applyThreadSetting(); }

dnnl::stream &amp::runtime::cpu::stream() {
  applyThreadSetting();
  thread_local dnnl::stream threadStream(engine());
  return threadStream;
}

float *amp::runtime::cpu::scratch(Scratch slot, int64_t count) {
  thread_local std::vector<float> buffers[static_cast<int>(Scratch::Count)];
  std::vector<float> &buffer = buffers[static_cast<int>(slot)];
  if (static_cast<int64_t>(buffer.size()) < count)
    buffer.resize(static_cast<size_t>(count));
  return buffer.data();
}

bool amp::runtime::cpu::isNaiveImplementation(const std::string &implInfo) {
  return implInfo.rfind("ref", 0) == 0;
}

dnnl::memory::data_type amp::runtime::cpu::dnnlType(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return dnnl::memory::data_type::f16;
  case AMP_DTYPE_BF16:
    return dnnl::memory::data_type::bf16;
  default:
    return dnnl::memory::data_type::f32;
  }
}
