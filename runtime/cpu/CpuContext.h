//===- CpuContext.h - oneDNN engine, threads and scratch of the cpu backend
//===//
//
// What every oneDNN-backed kernel of libamp_runtime_cpu shares: the CPU
// engine and a stream per calling thread, the thread count (AMP_NUM_THREADS,
// else every core OpenMP sees) and the deterministic mode
// (AMP_DETERMINISTIC), grow-only f32 scratch buffers per thread,
// and a cache of primitives keyed by everything their descriptors bake in
// (shapes, strides, dtypes, epilogue), created once and reused every step
// as the CUDA backend caches its cuBLASLt plans.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CPU_CPUCONTEXT_H
#define AMP_RUNTIME_CPU_CPUCONTEXT_H

#include "amp_runtime/amp_runtime.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace amp {
namespace runtime {
namespace cpu {

/// The engine and the calling thread's stream. The first call on a thread
/// applies AMP_NUM_THREADS to it; a malformed value is reported by
/// threadSettingError() and leaves OpenMP's default.
dnnl::engine &engine();
dnnl::stream &stream();

/// Applies AMP_NUM_THREADS to the calling thread (once per thread; also done
/// when the library is loaded, for the loading thread).
void applyThreadSetting();

/// "" when AMP_NUM_THREADS is unset or a positive integer and
/// AMP_DETERMINISTIC unset, 0 or 1, else why not.
const std::string &threadSettingError();

/// AMP_DETERMINISTIC=1: results must not depend on the thread count. amp's
/// own loops never do; oneDNN's GEMM and convolution may (how they split a
/// sum over threads), so in this mode they are created and run on one
/// thread (a OneDnnThreads guard around each).
bool deterministic();

/// While alive, oneDNN primitives created or run on this thread use one
/// thread in deterministic mode (and every thread otherwise).
class OneDnnThreads {
public:
  OneDnnThreads();
  ~OneDnnThreads();
  OneDnnThreads(const OneDnnThreads &) = delete;
  OneDnnThreads &operator=(const OneDnnThreads &) = delete;

private:
  int saved = 0;
};

/// Scratch of the calling thread: `slot` names one of a few independent
/// buffers (the operands being widened, the fp32 accumulator, a widened
/// bias, rows of C and aux widened inside a parallel loop, the scratchpad
/// of a oneDNN primitive, an attention thread's blocks), each at least
/// `count` floats, reused by the next call with the same slot.
enum class Scratch {
  A,
  B,
  Accumulator,
  Output,
  Bias,
  RowC,
  RowAux,
  OneDnn,
  Attention,
  Count
};
float *scratch(Scratch slot, int64_t count);

/// oneDNN's data type for a float dtype (f16, bf16, else f32).
dnnl::memory::data_type dnnlType(amp_dtype_t dtype);

/// True when oneDNN picked its naive reference implementation, which is
/// correct but far slower than amp's own fallbacks.
bool isNaiveImplementation(const std::string &implInfo);

/// Primitives (or plans holding them) by key. Thread safe; a full cache is
/// emptied rather than grown without bound.
template <typename Plan> class PlanCache {
public:
  using Key = std::vector<int64_t>;

  /// The plan for `key`, built by `make()` on a miss; `hit` says which.
  template <typename Make>
  std::shared_ptr<const Plan> get(const Key &key, bool &hit, Make &&make) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = plans.find(key);
      if ((hit = it != plans.end()))
        return it->second;
    }
    auto plan = std::make_shared<const Plan>(make());
    std::lock_guard<std::mutex> lock(mutex);
    if (plans.size() >= kCapacity)
      plans.clear();
    plans.emplace(key, plan);
    return plan;
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    plans.clear();
  }

private:
  static constexpr size_t kCapacity = 4096;
  std::mutex mutex;
  std::map<Key, std::shared_ptr<const Plan>> plans;
};

} // namespace cpu
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CPU_CPUCONTEXT_H
