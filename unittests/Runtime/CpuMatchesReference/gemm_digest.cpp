//===- gemm_digest.cpp - digests of a set of GEMMs on one backend ---------===//
//
//   amp-gemm-digest LIB
//
// Runs a fixed set of amp_gemm requests (random operands from a fixed seed;
// row counts that do and do not divide into the cpu backend's deterministic
// row blocks; f32, bf16 and f16; transposed A; fused and unfused epilogues,
// BGRADA, and C = D) on the backend LIB and prints one line per request:
// its name and an FNV-1a hash of D, aux and the bias output. In
// deterministic mode (AMP_DETERMINISTIC=1) the lines must not depend on
// AMP_NUM_THREADS: test/Runtime/cpu-gemm-deterministic.test compares them
// at 1 and 2 threads. With --blocks it also runs each request as separate
// requests of kBlockRows rows, its own cut of the operands, and fails
// unless the results are the same bits: in deterministic mode the backend
// cuts a request with as many rows that way itself (runtime/cpu/
// CpuGemm.cpp), so this checks the offsets of its cut independently.
//
//===----------------------------------------------------------------------===//

#include "HostValues.h"
#include "amp_runtime/gemm.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Gemm = amp_status_t (*)(const amp_gemm_desc_t *, void *);

/// The cpu backend's kDeterministicRows (runtime/cpu/CpuGemm.cpp).
constexpr int64_t kBlockRows = 128;
using LastError = const char *(*)();

uint64_t fnv1a(const std::vector<char> &bytes, uint64_t h) {
  for (char c : bytes)
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

/// n random values of `dtype`, uniform in [-1, 1] and rounded to it.
std::vector<char> randomBuffer(std::mt19937 &rng, int64_t n,
                               amp_dtype_t dtype) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  return storeAs(n, dtype, [&] { return uniform(rng); });
}

} // namespace

int main(int argc, char **argv) {
  const bool blocks = argc == 3 && !std::strcmp(argv[2], "--blocks");
  if (argc != 2 && !blocks) {
    std::fprintf(stderr, "usage: amp-gemm-digest LIB [--blocks]\n");
    return 2;
  }
  void *lib = ::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "amp-gemm-digest: %s\n", ::dlerror());
    return 1;
  }
  auto gemm = reinterpret_cast<Gemm>(::dlsym(lib, "amp_gemm"));
  auto lastError = reinterpret_cast<LastError>(::dlsym(lib, "amp_gemm_last_error"));
  struct Case {
    const char *name;
    int64_t m, n, k;
    amp_dtype_t ab, d;
    amp_gemm_epilogue_t epilogue;
    bool transA, cIsD;
  };
  const Case cases[] = {
      {"f32 none", 1000, 96, 200, AMP_DTYPE_F32, AMP_DTYPE_F32,
       AMP_GEMM_EPILOGUE_NONE, false, false},
      {"f32 bias+relu transA", 512, 64, 300, AMP_DTYPE_F32, AMP_DTYPE_F32,
       AMP_GEMM_EPILOGUE_RELU_BIAS, true, false},
      {"bf16 gelu_aux_bias", 700, 128, 96, AMP_DTYPE_BF16, AMP_DTYPE_BF16,
       AMP_GEMM_EPILOGUE_GELU_AUX_BIAS, false, false},
      {"f16 bias f16 D", 300, 80, 64, AMP_DTYPE_F16, AMP_DTYPE_F16,
       AMP_GEMM_EPILOGUE_BIAS, false, false},
      {"bf16 bgrada f32 D", 640, 72, 130, AMP_DTYPE_BF16, AMP_DTYPE_F32,
       AMP_GEMM_EPILOGUE_BGRADA, false, false},
      {"f32 beta C = D", 384, 48, 512, AMP_DTYPE_F32, AMP_DTYPE_F32,
       AMP_GEMM_EPILOGUE_NONE, false, true},
  };
  std::mt19937 rng(11);
  int failed = 0;
  for (const Case &c : cases) {
    const int64_t aRows = c.transA ? c.k : c.m, aCols = c.transA ? c.m : c.k;
    std::vector<char> a = randomBuffer(rng, aRows * aCols, c.ab);
    std::vector<char> b = randomBuffer(rng, c.k * c.n, c.ab);
    std::vector<char> d = randomBuffer(rng, c.m * c.n, c.d);
    std::vector<char> aux(c.m * c.n * amp_dtype_size(c.d));
    const bool gradA = c.epilogue == AMP_GEMM_EPILOGUE_BGRADA;
    std::vector<char> bias =
        randomBuffer(rng, gradA ? c.m : c.n, c.d); // input, or overwritten
    amp_gemm_desc_t g;
    amp_gemm_desc_init(&g);
    g.a = a.data();
    g.b = b.data();
    g.d = d.data();
    g.m = c.m;
    g.n = c.n;
    g.k = c.k;
    g.lda = aCols;
    g.ldb = c.n;
    g.ldc = c.n;
    g.ldd = c.n;
    g.ld_aux = c.n;
    g.trans_a = c.transA;
    g.a_dtype = g.b_dtype = c.ab;
    g.d_dtype = c.d;
    g.epilogue = c.epilogue;
    if (c.cIsD) {
      g.c = d.data();
      g.beta = 0.5f;
    }
    if (c.epilogue != AMP_GEMM_EPILOGUE_NONE)
      g.bias = bias.data();
    if (c.epilogue == AMP_GEMM_EPILOGUE_GELU_AUX_BIAS)
      g.aux = aux.data();
    const std::vector<char> d0 = d, bias0 = bias;
    if (gemm(&g, nullptr) != AMP_STATUS_OK) {
      std::printf("FAIL: %s: %s\n", c.name, lastError());
      ++failed;
      continue;
    }
    uint64_t h = fnv1a(d, 1469598103934665603ull);
    h = fnv1a(aux, h);
    h = fnv1a(bias, h);
    std::printf("%s: %016llx\n", c.name, static_cast<unsigned long long>(h));
    if (!blocks)
      continue;
    // The same request as blocks of kBlockRows rows, on the initial D and
    // bias: rows of op(A) (columns of A stored transposed), of C = D, D,
    // aux and BGRADA's bias.
    std::vector<char> dB = d0, biasB = bias0,
                      auxB(aux.size());
    const int64_t ab = amp_dtype_size(c.ab), ds = amp_dtype_size(c.d);
    for (int64_t row = 0; row < c.m; row += kBlockRows) {
      amp_gemm_desc_t part = g;
      part.m = std::min(kBlockRows, c.m - row);
      part.a = a.data() + (c.transA ? row : row * aCols) * ab;
      part.d = dB.data() + row * c.n * ds;
      if (c.cIsD)
        part.c = part.d;
      if (g.aux)
        part.aux = auxB.data() + row * c.n * ds;
      if (g.bias)
        part.bias = biasB.data() + (gradA ? row * ds : 0);
      if (gemm(&part, nullptr) != AMP_STATUS_OK) {
        std::printf("FAIL: %s, rows from %lld: %s\n", c.name,
                    static_cast<long long>(row), lastError());
        ++failed;
        break;
      }
    }
    if (dB != d || auxB != aux || biasB != bias) {
      std::printf("FAIL: %s: the request and its blocks differ\n", c.name);
      ++failed;
    }
  }
  return failed == 0 ? 0 : 1;
}
