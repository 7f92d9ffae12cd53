//===- CudaGemmTest.cpp - libamp_runtime_cuda against the reference -------===//
//
// The CUDA backend on the same inputs as the reference arithmetic (linked
// as C++ from amp_gemm_core, since both libraries export the same C names),
// through the fused cuBLASLt epilogues and through the forced unfused path.
// Both results lie within the f64-derived bound of GemmTestUtil of the exact
// value, so they may differ by twice that bound (plus, for fused epilogues,
// the error of a hardware tanh and a rounding of the product to an f16/bf16
// D's type before the epilogue). Every case that needs a GPU calls GTEST_SKIP()
// when there is none.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/gemm.h"
#include "reference/ReferenceGemm.h"

#include "gtest/gtest.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <vector>

using namespace amp::test;

namespace {

bool hasCudaDevice() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#define SKIP_WITHOUT_CUDA_DEVICE()                                             \
  do {                                                                         \
    if (!hasCudaDevice())                                                      \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (0)

/// Device copies of a HostGemm's buffers, `offset` bytes into each
/// allocation (to make pointers less aligned than cudaMalloc's 256 bytes).
class DeviceGemm {
public:
  DeviceGemm(const HostGemm &host, size_t offset = 0) : desc(host.desc) {
    upload(host.a, a, desc.a, offset);
    upload(host.b, b, desc.b, offset);
    upload(host.c, c, desc.c, offset);
    upload(host.d, d, desc.d, offset);
    upload(host.bias, bias, desc.bias, offset);
    upload(host.aux, aux, desc.aux, offset);
  }
  ~DeviceGemm() {
    for (void *p : {a, b, c, d, bias, aux})
      cudaFree(p);
  }
  DeviceGemm(const DeviceGemm &) = delete;
  DeviceGemm &operator=(const DeviceGemm &) = delete;

  /// Copies the outputs (everything, so untouched padding is checked too).
  void download(HostGemm &host) const {
    fetch(host.d, desc.d);
    fetch(host.aux, desc.aux);
    fetch(host.bias, desc.bias);
  }

  amp_gemm_desc_t desc;

private:
  template <typename Ptr>
  void upload(const std::vector<uint8_t> &src, void *&alloc, Ptr &field,
              size_t offset) {
    if (src.empty()) {
      field = nullptr;
      return;
    }
    ASSERT_EQ(cudaMalloc(&alloc, src.size() + offset), cudaSuccess);
    char *p = static_cast<char *>(alloc) + offset;
    ASSERT_EQ(cudaMemcpy(p, src.data(), src.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
    field = p;
  }
  static void fetch(std::vector<uint8_t> &dst, const void *src) {
    if (!dst.empty()) {
      ASSERT_EQ(cudaMemcpy(dst.data(), src, dst.size(), cudaMemcpyDeviceToHost),
                cudaSuccess);
    }
  }
  void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *bias = nullptr,
       *aux = nullptr;
};

/// hardware tanh.approx.f32 has a relative error below 2^-10.99
constexpr double kTanhApproxError = 1.0 / 1024;

/// Runs `host` on the GPU (offset pointers by `offset` bytes) and checks it
/// against the reference backend's result on the same inputs.
::testing::AssertionResult runAndCompare(const HostGemm &host, bool unfused,
                                         size_t offset = 0,
                                         cudaStream_t stream = nullptr) {
  HostGemm ref = host;
  ref.pointDescAtBuffers();
  amp::runtime::referenceGemm(ref.desc);
  Expected expected = expectedFromOutputs(
      ref, expectedF64(host, kTanhApproxError, /*productRoundedToD=*/!unfused));

  int previous = amp_gemm_set_force_unfused(unfused);
  DeviceGemm dev(host, offset);
  amp_status_t status = amp_gemm(&dev.desc, stream);
  amp_gemm_set_force_unfused(previous);
  if (status != AMP_STATUS_OK)
    return ::testing::AssertionFailure()
           << "amp_gemm: status " << status << ": " << amp_gemm_last_error();
  if (cudaError_t e = cudaStreamSynchronize(stream))
    return ::testing::AssertionFailure() << cudaGetErrorName(e);
  HostGemm out = host;
  dev.download(out);
  out.pointDescAtBuffers();
  return checkOutputs(host, out, expected, /*tolScale=*/2.0,
                      /*biasRoundingSlack=*/true)
         << (unfused ? " (unfused)" : " (fused if supported)");
}

class CudaGemm : public ::testing::TestWithParam<GemmCase> {};

TEST_P(CudaGemm, MatchesReference) {
  SKIP_WITHOUT_CUDA_DEVICE();
  HostGemm host = HostGemm::make(GetParam(), /*seed=*/4321);
  EXPECT_TRUE(runAndCompare(host, /*unfused=*/false));
  EXPECT_TRUE(runAndCompare(host, /*unfused=*/true));
}

INSTANTIATE_TEST_SUITE_P(AllCases, CudaGemm,
                         ::testing::ValuesIn(allGemmCases()),
                         [](const ::testing::TestParamInfo<GemmCase> &info) {
                           return caseName(info.param);
                         });

/// Aligned, transformer-like sizes, where cuBLASLt's fused epilogues apply.
TEST(CudaGemmShapes, AlignedSizesFusedAndUnfused) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (amp_gemm_epilogue_t e :
       {AMP_GEMM_EPILOGUE_BIAS, AMP_GEMM_EPILOGUE_GELU_AUX_BIAS,
        AMP_GEMM_EPILOGUE_DGELU_BGRAD, AMP_GEMM_EPILOGUE_BGRADA}) {
    for (auto [ab, d] : supportedDtypes()) {
      GemmCase c{e,
                 ab,
                 d,
                 /*transA=*/e == AMP_GEMM_EPILOGUE_BGRADA,
                 /*transB=*/e != AMP_GEMM_EPILOGUE_BGRADA,
                 BatchForm::Single};
      c.m = 256;
      c.n = 192;
      c.k = 320;
      HostGemm host = HostGemm::make(c, 99);
      EXPECT_TRUE(runAndCompare(host, false)) << caseName(c);
      EXPECT_TRUE(runAndCompare(host, true)) << caseName(c);
    }
  }
}

/// Pointers aligned to 2 bytes only: the heuristic must be told, and the
/// aux/bias guards send the epilogue to the unfused path.
TEST(CudaGemmShapes, PoorlyAlignedPointers) {
  SKIP_WITHOUT_CUDA_DEVICE();
  GemmCase c{AMP_GEMM_EPILOGUE_GELU_AUX_BIAS,
             AMP_DTYPE_F16,
             AMP_DTYPE_F16,
             false,
             true,
             BatchForm::Strided};
  HostGemm host = HostGemm::make(c, 5);
  EXPECT_TRUE(runAndCompare(host, false, /*offset=*/2));
}

TEST(CudaGemmShapes, NonDefaultStream) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  GemmCase c{
      AMP_GEMM_EPILOGUE_DGELU, AMP_DTYPE_BF16, AMP_DTYPE_BF16, true, false,
      BatchForm::Strided};
  HostGemm host = HostGemm::make(c, 6);
  EXPECT_TRUE(runAndCompare(host, false, 0, stream));
  EXPECT_TRUE(runAndCompare(host, true, 0, stream));
  amp_gemm_release_resources(); // frees the stream's workspace first
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

/// The heuristic runs once per key: a repeated call is a cache hit, and a
/// pointer of different alignment is a new key.
TEST(CudaGemmPlanCache, RepeatedCallsHitTheCache) {
  SKIP_WITHOUT_CUDA_DEVICE();
  GemmCase c{AMP_GEMM_EPILOGUE_BIAS, AMP_DTYPE_F16, AMP_DTYPE_F16, false, true,
             BatchForm::Single};
  c.m = c.n = c.k = 64;
  HostGemm host = HostGemm::make(c, 8);
  DeviceGemm dev(host);
  amp_gemm_release_resources();
  amp_gemm_reset_stats();
  amp_gemm_stats_t s;
  ASSERT_EQ(amp_gemm(&dev.desc, nullptr), AMP_STATUS_OK)
      << amp_gemm_last_error();
  amp_gemm_get_stats(&s);
  EXPECT_EQ(s.plan_misses, 1u);
  EXPECT_EQ(s.plan_hits, 0u);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(amp_gemm(&dev.desc, nullptr), AMP_STATUS_OK);
  amp_gemm_get_stats(&s);
  EXPECT_EQ(s.plan_misses, 1u);
  EXPECT_EQ(s.plan_hits, 3u);
  EXPECT_EQ(s.calls, 4u);
  amp_gemm_desc_t shifted = dev.desc;
  shifted.m = 63; // D's rows stay in bounds; A starts one row later
  shifted.a = static_cast<const char *>(shifted.a) + 2 * shifted.lda;
  ASSERT_EQ(amp_gemm(&shifted, nullptr), AMP_STATUS_OK);
  amp_gemm_get_stats(&s);
  EXPECT_EQ(s.plan_misses, 2u);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(CudaGemmBackend, Name) { EXPECT_STREQ(amp_gemm_backend_name(), "cuda"); }

/// Without a device a valid request fails cleanly, with the CUDA error name.
TEST(CudaGemmBackend, NoDeviceIsABackendError) {
  if (hasCudaDevice())
    GTEST_SKIP() << "a CUDA device is present";
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  // Never dereferenced: the call stops at the missing device.
  g.a = g.b = reinterpret_cast<const void *>(uintptr_t{256});
  g.d = reinterpret_cast<void *>(uintptr_t{512});
  g.m = g.n = g.k = 8;
  g.lda = g.ldb = g.ldd = 8;
  EXPECT_EQ(amp_gemm(&g, nullptr), AMP_STATUS_BACKEND_ERROR);
  EXPECT_NE(std::string(amp_gemm_last_error()).find("cuda"), std::string::npos)
      << amp_gemm_last_error();
}

} // namespace
