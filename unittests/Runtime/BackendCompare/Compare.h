//===- Compare.h - Run a kernel on two backends and compare ---------------===//
//
// amp-backend-compare runs every kernel of amp_runtime/kernels.h (and
// amp_gemm) on the reference backend and on the CUDA backend with the same
// random inputs and compares the outputs. Both libraries export the same C
// symbols, so each is dlopen'ed with RTLD_LOCAL and its entry points are
// resolved by name, typed with the header's own prototypes:
//
//   AMP_COMPARE_CASE(unary_exp) {
//     for (amp_dtype_t dt : floatDtypes()) {
//       Host x = randomHost(c.rng, dt, 1000, -3, 3);
//       auto run = [&](Backend &b) {
//         Buf dx = b.upload(x), dy = b.alloc(dt, 1000);
//         b.ok(AMP_CALL(b, amp_unary, AMP_UNARY_EXP, dx, dy, 1000, dt,
//                       nullptr));
//         return b.download(dy);
//       };
//       c.expectClose(std::string("exp ") + amp_dtype_name(dt), run(c.ref), run(c.dev),
//                     Tolerance::ulps(2));
//     }
//   }
//
// Plain C++ (no GoogleTest): it builds and runs where only a compiler and
// the CUDA toolkit are installed, as on the GPU machines. Exit code 77
// (skipped) when no CUDA device is visible.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPARE_H
#define AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPARE_H

#include "amp_runtime/float16.h"
#include "amp_runtime/gemm.h"
#include "amp_runtime/kernels.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace amp {
namespace compare {

std::vector<amp_dtype_t> floatDtypes();
/// Every dtype: f32, f16, bf16, i32, i64, bool.
std::vector<amp_dtype_t> allDtypes();

/// A tensor's bytes on the host.
struct Host {
  amp_dtype_t dtype = AMP_DTYPE_F32;
  std::vector<char> bytes;

  int64_t numel() const;
  /// Element i widened to double (integers and bool as their value).
  double get(int64_t i) const;
  /// Stores v rounded once (RNE) to the dtype (integers: truncated).
  void set(int64_t i, double v);
};

Host zeros(amp_dtype_t dtype, int64_t n);
/// Uniform in [lo, hi), each value exactly representable in `dtype`.
Host randomHost(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n, double lo,
                double hi);
/// Integers in [0, bound) as i32 or i64.
Host randomIndices(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n,
                   int64_t bound);

class Backend;

/// A buffer of one backend (freed with it).
class Buf {
public:
  Buf() = default;
  Buf(Backend *backend, void *ptr, int64_t bytes, amp_dtype_t dtype)
      : backend(backend), ptr(ptr), bytes(bytes), dtype(dtype) {}
  Buf(Buf &&other) noexcept { *this = std::move(other); }
  Buf &operator=(Buf &&other) noexcept;
  ~Buf();
  operator void *() const { return ptr; }
  void *get() const { return ptr; }

  Backend *backend = nullptr;
  void *ptr = nullptr;
  int64_t bytes = 0;
  amp_dtype_t dtype = AMP_DTYPE_F32;
};

/// Thrown by Backend::ok and Case code on a failure that ends the case.
struct CaseFailure {
  std::string message;
};

/// One loaded backend library.
class Backend {
public:
  /// Loads `path` (RTLD_LOCAL) or throws CaseFailure.
  static std::unique_ptr<Backend> load(const std::string &name,
                                       const std::string &path);
  ~Backend();

  const std::string &name() const { return label; }

  /// The entry point `symbol` typed as F (throws if missing).
  void *symbol(const char *symbol) const;
  template <typename F> F fn(const char *name) const {
    return reinterpret_cast<F>(symbol(name));
  }

  Buf alloc(amp_dtype_t dtype, int64_t numel);
  Buf upload(const Host &host);
  Host download(const Buf &buf);
  /// amp_synchronize; throws with the backend's last error on failure.
  void sync();
  /// Throws with the backend's last error unless `status` is OK.
  void ok(amp_status_t status, const char *what = "a kernel call");
  std::string lastError() const;

private:
  std::string label;
  void *handle = nullptr;
};

/// Calls entry point `f` of kernels.h/gemm.h on backend `b`.
#define AMP_CALL(b, f, ...) ((b).fn<decltype(&f)>(#f)(__VA_ARGS__))

/// How close two outputs must be, per element: |ref - dev| <= abs + rel *
/// |ref|, or within `ulps` units in the last place of the output dtype.
/// NaN matches NaN (payloads may differ), infinities match exactly.
struct Tolerance {
  double abs = 0, rel = 0;
  int ulps = 0;
  bool bitwise = false;

  static Tolerance exact() { return Tolerance{0, 0, 0, true}; }
  static Tolerance ulpsOf(int n) { return Tolerance{0, 0, n, false}; }
  static Tolerance close(double abs, double rel) {
    return Tolerance{abs, rel, 0, false};
  }
};

/// The state of one run: both backends, the random source, the failures.
struct Context {
  Backend *ref = nullptr;
  Backend *dev = nullptr;
  std::mt19937_64 rng{0x5eed};
  int failures = 0;
  int checks = 0;
  std::string caseName;
  /// Whether the device backend reports an error a kernel found (a label
  /// or id out of range) at the next amp_synchronize, as CUDA does, rather
  /// than from the call (--host backends).
  bool deferredErrors = true;
  /// Set by a case that does not apply to this device backend: why.
  std::string skipped;

  /// Compares two outputs element by element; a mismatch counts as a
  /// failure and is reported with its first index and both values.
  bool expectClose(const std::string &what, const Host &ref, const Host &dev,
                   Tolerance tolerance);
  /// Both calls returned the same status (for the error-path cases).
  bool expectSameStatus(const std::string &what, amp_status_t ref,
                        amp_status_t dev);
  void fail(const std::string &message);
};

using CaseFn = void (*)(Context &c);
struct CaseRegistration {
  CaseRegistration(const char *name, CaseFn fn);
};

#define AMP_COMPARE_CASE(name)                                                 \
  static void ampCompare_##name(::amp::compare::Context &c);                   \
  static ::amp::compare::CaseRegistration ampCompareReg_##name(                \
      #name, ampCompare_##name);                                               \
  static void ampCompare_##name(::amp::compare::Context &c)

} // namespace compare
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPARE_H
