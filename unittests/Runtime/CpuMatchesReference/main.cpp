//===- main.cpp - the cpu backend's own kernels against the reference -----===//
//
//   amp-cpu-ref-compare REF_LIB CPU_LIB
//
// Loads libamp_runtime_ref and libamp_runtime_cpu (dlopen, RTLD_LOCAL: they
// export the same symbols) and runs the kernels whose loops the cpu backend
// splits over threads on the same random inputs in both: the reductions,
// the layer norm and its gradient (sums across rows), the optimizers and
// unscale-and-check (vectorized loops). docs/runtime-kernels.md promises
// these bitwise equal to the reference at any thread count; this checks it
// at the thread count AMP_NUM_THREADS gives (lit runs it at 1 and 2). Sizes
// cross kParallelGrain, below which the loops do not split. Prints one line
// per mismatch and a summary; exits 1 on a mismatch or an error.
//
// Attention, like the GEMM and the convolutions, is the cpu backend's own
// (oneDNN GEMMs, runtime/cpu/CpuAttention.cpp), within f32 rounding of the
// reference but not its bits: amp-backend-compare compares it within
// tolerance (unittests/Runtime/BackendCompare/CompareAttention.cpp;
// `amp-backend-compare --host libamp_runtime_cpu.so attention`).
//
//===----------------------------------------------------------------------===//

#include "HostValues.h"
#include "amp_runtime/kernels.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

struct Library {
  void *handle = nullptr;
  template <typename F> F get(const char *name) const {
    return reinterpret_cast<F>(::dlsym(handle, name));
  }
};

int failures = 0;
int checks = 0;

void fail(const std::string &what) {
  ++failures;
  std::printf("FAIL: %s\n", what.c_str());
}

/// Both results' bytes equal, and both calls succeeded.
void expectSame(const std::string &what, amp_status_t s0, amp_status_t s1,
                const std::vector<std::vector<char>> &out0,
                const std::vector<std::vector<char>> &out1) {
  ++checks;
  if (s0 != AMP_STATUS_OK || s1 != AMP_STATUS_OK)
    return fail(what + ": status " + std::to_string(s0) + " / " +
                std::to_string(s1));
  for (size_t k = 0; k < out0.size(); ++k)
    if (out0[k] != out1[k])
      return fail(what + ": output " + std::to_string(k) +
                  " differs from the reference's");
}

std::mt19937 rng(7);

/// n random values of `dtype` (f32 or bf16), normal with deviation
/// `scale`, or their magnitudes (`nonNegative`).
std::vector<char> randomBuffer(int64_t n, amp_dtype_t dtype, float scale = 1,
                               bool nonNegative = false) {
  std::normal_distribution<float> normal(0.0f, scale);
  return storeAs(n, dtype, [&] {
    const float v = normal(rng);
    return nonNegative ? std::fabs(v) : v;
  });
}

void compareReductions(const Library lib[2]) {
  using Reduce = amp_status_t (*)(amp_reduce_op_t, const void *, void *,
                                  const int64_t *, int32_t, const int64_t *,
                                  int32_t, amp_dtype_t, amp_dtype_t, void *);
  struct Case {
    std::vector<int64_t> dims, axes;
  };
  const std::vector<Case> cases = {
      {{256, 512}, {0}},        {{256, 512}, {1}},
      {{64, 128, 96}, {0, 2}},  {{64, 128, 96}, {1}},
      {{8, 16, 32, 32}, {2, 3}}, {{4096, 768}, {0}},
      {{1 << 18}, {0}},         {{32, 64, 64}, {0, 1}}};
  for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16})
    for (const Case &c : cases)
      for (amp_reduce_op_t op :
           {AMP_REDUCE_SUM, AMP_REDUCE_MEAN, AMP_REDUCE_MAX}) {
        int64_t n = 1, ny = 1;
        for (size_t d = 0; d < c.dims.size(); ++d) {
          n *= c.dims[d];
          bool reduced = false;
          for (int64_t a : c.axes)
            reduced |= a == static_cast<int64_t>(d);
          ny *= reduced ? 1 : c.dims[d];
        }
        std::vector<char> x = randomBuffer(n, dtype);
        std::vector<std::vector<char>> y[2];
        amp_status_t status[2];
        for (int l = 0; l < 2; ++l) {
          y[l] = {std::vector<char>(ny * 4)};
          status[l] = lib[l].get<Reduce>("amp_reduce")(
              op, x.data(), y[l][0].data(), c.dims.data(),
              static_cast<int32_t>(c.dims.size()), c.axes.data(),
              static_cast<int32_t>(c.axes.size()), dtype, AMP_DTYPE_F32,
              nullptr);
        }
        expectSame("amp_reduce op " + std::to_string(op) + " of " +
                       std::to_string(n) + " " + amp_dtype_name(dtype),
                   status[0], status[1], y[0], y[1]);
      }
}

void compareLayerNorm(const Library lib[2]) {
  using Norm = amp_status_t (*)(const void *, const void *, const void *,
                                void *, float *, float *, const int64_t *,
                                int32_t, amp_dtype_t, amp_dtype_t, amp_dtype_t,
                                int64_t, float, void *);
  using NormGrad = amp_status_t (*)(
      const void *, const void *, const float *, const float *, const void *,
      void *, void *, void *, const int64_t *, int32_t, amp_dtype_t,
      amp_dtype_t, int64_t, void *);
  for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16})
    for (std::vector<int64_t> dims :
         {std::vector<int64_t>{512, 768}, {2048, 96}, {3, 16384}, {64, 32}}) {
      const int64_t rows = dims[0], len = dims[1], n = rows * len;
      const int64_t size = amp_dtype_size(dtype);
      std::vector<char> x = randomBuffer(n, dtype), dy = randomBuffer(n, dtype);
      std::vector<char> scale = randomBuffer(len, AMP_DTYPE_F32),
                        bias = randomBuffer(len, AMP_DTYPE_F32);
      std::vector<std::vector<char>> out[2];
      amp_status_t status[2];
      for (int l = 0; l < 2; ++l) {
        std::vector<char> y(n * size), dx(n * size), dscale(len * 4),
            dbias(len * 4);
        std::vector<float> mean(rows), rstd(rows);
        status[l] = lib[l].get<Norm>("amp_layer_norm")(
            x.data(), scale.data(), bias.data(), y.data(), mean.data(),
            rstd.data(), dims.data(), 2, dtype, AMP_DTYPE_F32, AMP_DTYPE_F32, 1,
            1e-5f, nullptr);
        if (status[l] == AMP_STATUS_OK)
          status[l] = lib[l].get<NormGrad>("amp_layer_norm_grad")(
              dy.data(), x.data(), mean.data(), rstd.data(), scale.data(),
              dx.data(), dscale.data(), dbias.data(), dims.data(), 2, dtype,
              AMP_DTYPE_F32, 1, nullptr);
        out[l] = {y, dx, dscale, dbias};
      }
      expectSame("amp_layer_norm(_grad) " + std::to_string(rows) + "x" +
                     std::to_string(len) + " " + amp_dtype_name(dtype),
                 status[0], status[1], out[0], out[1]);
    }
}

void compareOptimizers(const Library lib[2]) {
  using Sgd =
      amp_status_t (*)(const void *, const void *, const void *, void *, void *,
                       int64_t, amp_dtype_t, float, const float *, float, float,
                       float, int32_t, const int8_t *, void *);
  using Adam = amp_status_t (*)(
      const void *, const void *, const void *, const void *, const float *,
      const void *, void *, void *, void *, float *, void *, int64_t,
      amp_dtype_t, float, const float *, float, float, float, float, int32_t,
      int32_t, const int8_t *, void *);
  static_assert(std::is_same_v<Sgd, decltype(&amp_sgd_update)> &&
                    std::is_same_v<Adam, decltype(&amp_adam_update)>,
                "the prototypes of kernels.h");
  using Unscale = amp_status_t (*)(int32_t, const void *const *,
                                   void *const *, const int64_t *,
                                   const amp_dtype_t *, const float *,
                                   int8_t *, void *);
  const int64_t n = 100003;
  const int8_t noInf = 0;
  struct SgdCase {
    float momentum, weightDecay;
    int32_t nesterov;
  };
  for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16}) {
    const int64_t size = amp_dtype_size(dtype);
    std::vector<char> p = randomBuffer(n, dtype), g = randomBuffer(n, dtype),
                      m = randomBuffer(n, dtype),
                      v = randomBuffer(n, dtype, 0.01f, /*nonNegative=*/true);
    for (SgdCase c : {SgdCase{0.9f, 0.0f, 0}, SgdCase{0.9f, 1e-4f, 1},
                      SgdCase{0.0f, 1e-2f, 0}}) {
      std::vector<std::vector<char>> out[2];
      amp_status_t status[2];
      for (int l = 0; l < 2; ++l) {
        std::vector<char> np(n * size), nm(n * size);
        status[l] = lib[l].get<Sgd>("amp_sgd_update")(
            p.data(), g.data(), c.momentum > 0 ? m.data() : nullptr, np.data(),
            c.momentum > 0 ? nm.data() : nullptr, n, dtype, 0.05f, nullptr,
            c.momentum, 0.0f, c.weightDecay, c.nesterov, &noInf, nullptr);
        out[l] = {np, nm};
      }
      expectSame(std::string("amp_sgd_update momentum ") +
                     std::to_string(c.momentum) + " nesterov " +
                     std::to_string(c.nesterov) + " " + amp_dtype_name(dtype),
                 status[0], status[1], out[0], out[1]);
    }
    // AdamW (decoupled weight decay), Adam (L2), and AdamW with AMSGrad
    // (its maxima: the v buffer, so that some elements keep theirs).
    for (auto [decoupled, amsgrad] :
         {std::pair(1, 0), std::pair(0, 0), std::pair(1, 1)}) {
      std::vector<std::vector<char>> out[2];
      amp_status_t status[2];
      for (int l = 0; l < 2; ++l) {
        std::vector<char> np(n * size), nm(n * size), nv(n * size),
            nvmax(n * size);
        const float step = 4.0f;
        float newStep = 0.0f;
        status[l] = lib[l].get<Adam>("amp_adam_update")(
            p.data(), g.data(), m.data(), v.data(), &step,
            amsgrad ? v.data() : nullptr, np.data(), nm.data(), nv.data(),
            &newStep, amsgrad ? nvmax.data() : nullptr, n, dtype, 1e-3f,
            nullptr, 0.9f, 0.999f, 1e-8f, 0.01f, decoupled, amsgrad, &noInf,
            nullptr);
        std::vector<char> stepBytes(4);
        std::memcpy(stepBytes.data(), &newStep, 4);
        out[l] = {np, nm, nv, stepBytes, nvmax};
      }
      expectSame(std::string("amp_adam_update decoupled ") +
                     std::to_string(decoupled) + " amsgrad " +
                     std::to_string(amsgrad) + " " + amp_dtype_name(dtype),
                 status[0], status[1], out[0], out[1]);
    }

    std::vector<std::vector<char>> out[2];
    amp_status_t status[2];
    std::vector<char> grads = g;
    const float inf = 1.0f / 0.0f;
    if (dtype == AMP_DTYPE_F32)
      std::memcpy(grads.data() + 4 * (n / 2), &inf, 4);
    for (int l = 0; l < 2; ++l) {
      std::vector<char> unscaled(n * size);
      const void *in[1] = {grads.data()};
      void *outs[1] = {unscaled.data()};
      const float scale = 65536.0f;
      int8_t found = 0;
      status[l] = lib[l].get<Unscale>("amp_unscale_and_check")(
          1, in, outs, &n, &dtype, &scale, &found, nullptr);
      out[l] = {unscaled, std::vector<char>(1, found)};
    }
    expectSame(std::string("amp_unscale_and_check ") + amp_dtype_name(dtype),
               status[0], status[1], out[0], out[1]);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: amp-cpu-ref-compare REF_LIB CPU_LIB\n");
    return 2;
  }
  Library lib[2];
  for (int l = 0; l < 2; ++l) {
    lib[l].handle = ::dlopen(argv[1 + l], RTLD_NOW | RTLD_LOCAL);
    if (!lib[l].handle) {
      std::fprintf(stderr, "amp-cpu-ref-compare: %s\n", ::dlerror());
      return 1;
    }
  }
  compareReductions(lib);
  compareLayerNorm(lib);
  compareOptimizers(lib);
  std::printf("amp-cpu-ref-compare: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
