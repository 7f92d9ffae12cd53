//===- GemmBench.cpp - Throughput and host overhead of amp_gemm -----------===//
//
// A benchmark program, not a test. Built twice from this file:
//   amp-gemm-bench      libamp_runtime_cuda: TFLOP/s of square GEMMs and of
//                       the forward and backward GEMMs of a transformer MLP
//                       block (tokens 8192, d 4096, ffn 16384) and of a
//                       BERT-base layer (batch 32 x seq 512) in f16 and
//                       bf16, with and without epilogues, and the host time
//                       of a call that hits the plan cache
//   amp-gemm-bench-ref  libamp_runtime_ref on the same table scaled down
//                       (the CPU reference is not built for speed)
//   amp-gemm-bench-cpu  libamp_runtime_cpu (oneDNN), every core; with
//                       --dtypes f32 as well (bench/cpu_backend_bench.py
//                       compares its square rows with torch.matmul)
// All use only the C ABI of amp_runtime/gemm.h. bench/torch_gemm_bench.py
// times PyTorch on the same table. Exit status 77: no CUDA device.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/gemm.h"
#include "amp_runtime/kernels.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef AMP_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

#ifdef AMP_BENCH_CUDA
constexpr bool kOnGpu = true;
#else
constexpr bool kOnGpu = false;
#endif

/// One row of the table: C = op(A) op(B) with an epilogue, D of A's dtype.
struct Shape {
  const char *name;
  int64_t m, n, k;
  bool transA, transB;
  std::vector<amp_gemm_epilogue_t> epilogues;
};

/// The forward and backward GEMMs of one transformer MLP block (tokens t,
/// width d, hidden f), rows named PREFIX + "fc1.fwd" etc.
/// Y = X W^T + b with X: tokens x in, W: out x in (see gemm.h).
void mlpBlockShapes(std::vector<Shape> &shapes, const char *const names[6],
                    int64_t t, int64_t d, int64_t f) {
  const amp_gemm_epilogue_t none = AMP_GEMM_EPILOGUE_NONE;
  shapes.push_back(
      {names[0],
       t,
       f,
       d,
       false,
       true,
       {none, AMP_GEMM_EPILOGUE_BIAS, AMP_GEMM_EPILOGUE_GELU_AUX_BIAS}});
  shapes.push_back(
      {names[1], t, d, f, false, true, {none, AMP_GEMM_EPILOGUE_BIAS}});
  shapes.push_back(
      {names[2],
       t,
       f,
       d,
       false,
       false,
       {none, AMP_GEMM_EPILOGUE_DGELU, AMP_GEMM_EPILOGUE_DGELU_BGRAD}});
  shapes.push_back(
      {names[3], d, f, t, true, false, {none, AMP_GEMM_EPILOGUE_BGRADA}});
  shapes.push_back({names[4], t, d, f, false, false, {none}});
  shapes.push_back(
      {names[5], f, d, t, true, false, {none, AMP_GEMM_EPILOGUE_BGRADA}});
}

/// The shapes; `scale` divides every dimension (the CPU table): squares, a
/// large transformer MLP block (tokens 8192, d 4096, ffn 16384), and the
/// GEMMs of a BERT-base layer at batch 32 x seq 512 (tokens 16384, d 768,
/// ffn 3072: the fused QKV projection and the MLP block). Keep in step with
/// bench/torch_gemm_bench.py.
std::vector<Shape> benchShapes(int64_t scale) {
  const amp_gemm_epilogue_t none = AMP_GEMM_EPILOGUE_NONE;
  std::vector<Shape> shapes;
  for (int64_t s : {1024, 2048, 4096, 8192})
    shapes.push_back({"square",
                      s / scale,
                      s / scale,
                      s / scale,
                      false,
                      false,
                      {none, AMP_GEMM_EPILOGUE_GELU_BIAS}});
  static const char *const large[6] = {"fc1.fwd",      "fc2.fwd",
                                       "fc2.bwd.data", "fc2.bwd.weight",
                                       "fc1.bwd.data", "fc1.bwd.weight"};
  mlpBlockShapes(shapes, large, 8192 / scale, 4096 / scale, 16384 / scale);
  const int64_t t = 16384 / scale, d = 768 / scale, f = 3072 / scale;
  shapes.push_back({"bert.qkv.fwd",
                    t,
                    3 * d,
                    d,
                    false,
                    true,
                    {none, AMP_GEMM_EPILOGUE_BIAS}});
  shapes.push_back({"bert.qkv.bwd.data", t, d, 3 * d, false, false, {none}});
  shapes.push_back({"bert.qkv.bwd.weight",
                    3 * d,
                    d,
                    t,
                    true,
                    false,
                    {none, AMP_GEMM_EPILOGUE_BGRADA}});
  static const char *const bert[6] = {
      "bert.fc1.fwd",        "bert.fc2.fwd",      "bert.fc2.bwd.data",
      "bert.fc2.bwd.weight", "bert.fc1.bwd.data", "bert.fc1.bwd.weight"};
  mlpBlockShapes(shapes, bert, t, d, f);
  return shapes;
}

bool usesBias(amp_gemm_epilogue_t e) {
  return e == AMP_GEMM_EPILOGUE_BIAS || e == AMP_GEMM_EPILOGUE_RELU_BIAS ||
         e == AMP_GEMM_EPILOGUE_GELU_BIAS ||
         e == AMP_GEMM_EPILOGUE_GELU_AUX_BIAS ||
         e == AMP_GEMM_EPILOGUE_DRELU_BGRAD ||
         e == AMP_GEMM_EPILOGUE_DGELU_BGRAD || e == AMP_GEMM_EPILOGUE_BGRADA ||
         e == AMP_GEMM_EPILOGUE_BGRADB;
}

bool usesAux(amp_gemm_epilogue_t e) {
  return e == AMP_GEMM_EPILOGUE_GELU_AUX ||
         e == AMP_GEMM_EPILOGUE_GELU_AUX_BIAS || e == AMP_GEMM_EPILOGUE_DRELU ||
         e == AMP_GEMM_EPILOGUE_DRELU_BGRAD || e == AMP_GEMM_EPILOGUE_DGELU ||
         e == AMP_GEMM_EPILOGUE_DGELU_BGRAD;
}

//===----------------------------------------------------------------------===//
// Memory and clocks of the backend under test
//===----------------------------------------------------------------------===//

/// Bits of small random 16-bit values (|x| < 1) in f16 or bf16, so that
/// the hardware does real work (all-zero inputs run cooler and faster).
std::vector<uint16_t> randomBits(amp_dtype_t dtype, size_t count) {
  std::mt19937 rng(42);
  std::vector<uint16_t> bits(count);
  for (uint16_t &b : bits) {
    uint16_t mantissa = uint16_t(rng());
    uint16_t sign = uint16_t(rng() & 1u) << 15;
    b = dtype == AMP_DTYPE_F16
            ? uint16_t(sign | (uint16_t(13 + rng() % 2) << 10) |
                       (mantissa & 0x3ffu))
            : uint16_t(sign | (uint16_t(124 + rng() % 2) << 7) |
                       (mantissa & 0x7fu));
  }
  return bits;
}

/// Bits of random f32 values (|x| < 1), as pairs of 16-bit halves.
std::vector<uint16_t> randomF32Bits(size_t count) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<uint16_t> bits(count * 2);
  for (size_t i = 0; i < count; ++i) {
    float f = dist(rng);
    std::memcpy(&bits[2 * i], &f, sizeof(f));
  }
  return bits;
}

/// A buffer of `count` elements of `dtype` filled with random values.
void *allocFilled(amp_dtype_t dtype, size_t count) {
  static std::vector<uint16_t> patterns[3]; // f16, bf16, f32 (as halves)
  const int which = dtype == AMP_DTYPE_F16    ? 0
                    : dtype == AMP_DTYPE_BF16 ? 1
                                              : 2;
  std::vector<uint16_t> &pattern = patterns[which];
  if (pattern.empty())
    pattern = which == 2 ? randomF32Bits(size_t(1) << 19)
                         : randomBits(dtype, size_t(1) << 20);
  // Counted in 16-bit halves from here on.
  count *= size_t(amp_dtype_size(dtype) / 2);
  const size_t bytes = count * 2;
#ifdef AMP_BENCH_CUDA
  void *p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    std::fprintf(stderr, "amp-gemm-bench: cudaMalloc of %zu bytes failed\n",
                 bytes);
    std::exit(1);
  }
  for (size_t off = 0; off < count; off += pattern.size()) {
    size_t n = std::min(pattern.size(), count - off);
    cudaMemcpy(static_cast<uint16_t *>(p) + off, pattern.data(), n * 2,
               cudaMemcpyHostToDevice);
  }
#else
  void *p = std::malloc(bytes);
  if (!p) {
    std::fprintf(stderr, "amp-gemm-bench-ref: out of memory\n");
    std::exit(1);
  }
  for (size_t off = 0; off < count; off += pattern.size())
    std::memcpy(static_cast<uint16_t *>(p) + off, pattern.data(),
                std::min(pattern.size(), count - off) * 2);
#endif
  return p;
}

void release(void *p) {
#ifdef AMP_BENCH_CUDA
  cudaFree(p);
#else
  std::free(p);
#endif
}

void synchronize() {
#ifdef AMP_BENCH_CUDA
  cudaDeviceSynchronize();
#endif
}

double nowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Seconds per call of `run` (already warmed up), GPU time on the GPU.
/// Mean seconds per call. amp_gemm runs on the backend's own stream, which
/// events recorded on the default stream would not wait for (the first
/// GPU table, 2026-11-27, read 90000 "TFLOP/s" that way): the host clock
/// between two amp_synchronize calls times every GEMM of the loop.
template <typename F> double timePerCall(int iters, F &&run) {
  amp_synchronize(nullptr);
  double start = nowSeconds();
  for (int i = 0; i < iters; ++i)
    run();
  amp_synchronize(nullptr);
  return (nowSeconds() - start) / iters;
}

//===----------------------------------------------------------------------===//
// The benchmark
//===----------------------------------------------------------------------===//

struct Options {
  int warmup = kOnGpu ? 5 : 1;
  int iters = kOnGpu ? 20 : 3;
  int64_t scale = kOnGpu ? 1 : 16;
  std::string filter;
  bool overhead = kOnGpu;
  std::vector<amp_dtype_t> dtypes = {AMP_DTYPE_F16, AMP_DTYPE_BF16};
};

const char *dtypeLabel(amp_dtype_t dtype) {
  return dtype == AMP_DTYPE_F16    ? "f16"
         : dtype == AMP_DTYPE_BF16 ? "bf16"
                                   : "f32";
}

/// Runs one GEMM of `shape` `opts.iters` times and prints a table row.
bool benchOne(const Shape &shape, amp_dtype_t dtype, amp_gemm_epilogue_t epi,
              const Options &opts) {
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  g.m = shape.m;
  g.n = shape.n;
  g.k = shape.k;
  g.trans_a = shape.transA;
  g.trans_b = shape.transB;
  g.lda = shape.transA ? g.m : g.k;
  g.ldb = shape.transB ? g.k : g.n;
  g.ldd = g.ld_aux = g.n;
  g.a_dtype = g.b_dtype = g.d_dtype = dtype;
  g.epilogue = epi;
  void *a = allocFilled(dtype, size_t(g.m * g.k));
  void *b = allocFilled(dtype, size_t(g.k * g.n));
  void *d = allocFilled(dtype, size_t(g.m * g.n));
  void *aux = usesAux(epi) ? allocFilled(dtype, size_t(g.m * g.n)) : nullptr;
  void *bias =
      usesBias(epi) ? allocFilled(dtype, size_t(std::max(g.m, g.n))) : nullptr;
  g.a = a;
  g.b = b;
  g.d = d;
  g.aux = aux;
  g.bias = bias;

  bool ok = true;
  amp_gemm_stats_t before, after;
  amp_gemm_get_stats(&before);
  for (int i = 0; i < opts.warmup && ok; ++i)
    ok = amp_gemm(&g, nullptr) == AMP_STATUS_OK;
  double seconds = 0;
  if (ok)
    seconds = timePerCall(opts.iters, [&] { amp_gemm(&g, nullptr); });
  amp_gemm_get_stats(&after);

  const double flops = 2.0 * double(g.m) * double(g.n) * double(g.k);
  char dims[64];
  std::snprintf(dims, sizeof(dims), "%lldx%lldx%lld", (long long)g.m,
                (long long)g.n, (long long)g.k);
  if (!ok) {
    std::printf("%-15s %-17s %-5s %-14s  failed: %s\n", shape.name, dims,
                dtypeLabel(dtype), amp_gemm_epilogue_name(epi),
                amp_gemm_last_error());
  } else {
    const bool unfused = after.unfused_calls > before.unfused_calls;
    std::printf("%-15s %-17s %-5s %-14s %9.3f %9.2f  %s\n", shape.name, dims,
                dtypeLabel(dtype), amp_gemm_epilogue_name(epi), seconds * 1e3,
                flops / seconds * (kOnGpu ? 1e-12 : 1e-9),
                kOnGpu ? (unfused ? "unfused" : "fused") : "");
  }
  for (void *p : {a, b, d, aux, bias})
    if (p)
      release(p);
  return ok;
}

/// Host time of amp_gemm calls that hit the plan cache. The calls are timed
/// in groups of 64 between synchronizations, so the launch queue never
/// fills and blocks the host.
void benchOverhead() {
  const int64_t s = 64;
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  g.m = g.n = g.k = s;
  g.lda = g.ldb = g.ldd = s;
  g.trans_b = 1;
  g.epilogue = AMP_GEMM_EPILOGUE_BIAS;
  void *a = allocFilled(AMP_DTYPE_F16, s * s);
  void *b = allocFilled(AMP_DTYPE_F16, s * s);
  void *d = allocFilled(AMP_DTYPE_F16, s * s);
  void *bias = allocFilled(AMP_DTYPE_F16, s);
  g.a = a;
  g.b = b;
  g.d = d;
  g.bias = bias;

  amp_gemm_release_resources(); // the first call below builds the plan
  synchronize();
  double t0 = nowSeconds();
  amp_status_t status = amp_gemm(&g, nullptr);
  double first = nowSeconds() - t0;
  synchronize();
  if (status != AMP_STATUS_OK) {
    std::printf("overhead: amp_gemm failed: %s\n", amp_gemm_last_error());
    return;
  }
  amp_gemm_stats_t before, after;
  amp_gemm_get_stats(&before);
  const int groups = 200, perGroup = 64;
  double host = 0;
  for (int i = 0; i < groups; ++i) {
    double start = nowSeconds();
    for (int j = 0; j < perGroup; ++j)
      amp_gemm(&g, nullptr);
    host += nowSeconds() - start;
    synchronize();
  }
  amp_gemm_get_stats(&after);
  std::printf("\nhost time per amp_gemm call, 64x64x64 f16 BIAS:\n");
  std::printf("  first call (plan miss: heuristic, workspace) %10.1f us\n",
              first * 1e6);
  std::printf("  plan-cache hit (mean of %d calls)            %10.2f us   "
              "(%llu hits, %llu misses)\n",
              groups * perGroup, host / (groups * perGroup) * 1e6,
              (unsigned long long)(after.plan_hits - before.plan_hits),
              (unsigned long long)(after.plan_misses - before.plan_misses));
  for (void *p : {a, b, d, bias})
    release(p);
}

void usage(const char *argv0) {
  std::printf(
      "usage: %s [--iters N] [--warmup N] [--scale S] [--filter TEXT] "
      "[--no-overhead] [--unfused] [--dtypes f16,bf16,f32]\n"
      "  --scale S    divide every dimension of the table by S (default %d)\n"
      "  --filter T   only shapes whose name contains T\n"
      "  --unfused    every epilogue as a separate pass after the GEMM\n"
      "               (amp_gemm_set_force_unfused), for the fusion gain\n",
      argv0, kOnGpu ? 1 : 16);
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) {
        usage(argv[0]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--iters")
      opts.iters = std::max(1, std::atoi(value()));
    else if (arg == "--warmup")
      opts.warmup = std::max(0, std::atoi(value()));
    else if (arg == "--scale")
      opts.scale = std::max<int64_t>(1, std::atoll(value()));
    else if (arg == "--filter")
      opts.filter = value();
    else if (arg == "--no-overhead")
      opts.overhead = false;
    else if (arg == "--unfused")
      amp_gemm_set_force_unfused(1);
    else if (arg == "--dtypes") {
      opts.dtypes.clear();
      std::string list = value();
      for (size_t start = 0; start <= list.size();) {
        size_t comma = std::min(list.find(',', start), list.size());
        std::string name = list.substr(start, comma - start);
        if (name == "f16" || name == "bf16" || name == "f32")
          opts.dtypes.push_back(name == "f16"    ? AMP_DTYPE_F16
                                : name == "bf16" ? AMP_DTYPE_BF16
                                                 : AMP_DTYPE_F32);
        else {
          std::fprintf(stderr, "--dtypes: unknown dtype '%s'\n", name.c_str());
          return 2;
        }
        start = comma + 1;
      }
    } else {
      usage(argv[0]);
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }

#ifdef AMP_BENCH_CUDA
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("amp-gemm-bench: no CUDA device (%s), nothing to measure; "
                "amp-gemm-bench-ref runs the CPU reference backend\n",
                e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
    return 77;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("backend %s on %s (sm_%d%d)\n", amp_gemm_backend_name(),
              prop.name, prop.major, prop.minor);
#else
  std::printf("backend %s (CPU), dimensions / %lld\n", amp_gemm_backend_name(),
              (long long)opts.scale);
#endif
  std::printf("%-15s %-17s %-5s %-14s %9s %9s\n", "shape", "MxNxK", "dtype",
              "epilogue", "ms", kOnGpu ? "TFLOP/s" : "GFLOP/s");

  bool ok = true;
  for (const Shape &shape : benchShapes(opts.scale)) {
    if (!opts.filter.empty() &&
        std::string(shape.name).find(opts.filter) == std::string::npos)
      continue;
    for (amp_dtype_t dtype : opts.dtypes)
      for (amp_gemm_epilogue_t epi : shape.epilogues)
        ok &= benchOne(shape, dtype, epi, opts);
  }
  if (opts.overhead)
    benchOverhead();
  return ok ? 0 : 1;
}
