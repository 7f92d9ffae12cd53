//===- GemmValidationTest.cpp - amp_gemm rejects malformed requests -------===//
//
// Bad requests return INVALID_ARGUMENT or NOT_SUPPORTED with a message that
// names the problem, and write nothing. Uses only the C ABI, so it is built
// into the test binary of each backend: both must answer alike (the CUDA
// backend validates before it touches the device, so these run without one).
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

/// A valid request (f16, GELU_AUX_BIAS, 2 batches of 4x5x6) over buffers
/// that are big enough for every mutation below. The pointers do not matter
/// to a rejected call: nothing may be read or written through them.
struct ValidRequest {
  std::vector<uint16_t> a = std::vector<uint16_t>(64, 0x3c00);
  std::vector<uint16_t> b = std::vector<uint16_t>(64, 0x3c00);
  std::vector<uint16_t> c = std::vector<uint16_t>(64, 0x3c00);
  std::vector<uint16_t> d = std::vector<uint16_t>(64, 0x7e5a);
  std::vector<uint16_t> bias = std::vector<uint16_t>(16, 0x3c00);
  std::vector<uint16_t> aux = std::vector<uint16_t>(64, 0x7e5a);
  amp_gemm_desc_t g;

  ValidRequest() {
    amp_gemm_desc_init(&g);
    g.a = a.data();
    g.b = b.data();
    g.c = c.data();
    g.d = d.data();
    g.bias = bias.data();
    g.aux = aux.data();
    g.m = 4;
    g.n = 5;
    g.k = 6;
    g.batch_count = 2;
    g.lda = 6;
    g.ldb = 5;
    g.ldc = g.ldd = g.ld_aux = 5;
    g.stride_a = 24;
    g.stride_b = 30;
    g.stride_c = 0;
    g.stride_d = g.stride_aux = 20;
    g.stride_bias = 0;
    g.beta = 1.0f;
    g.epilogue = AMP_GEMM_EPILOGUE_GELU_AUX_BIAS;
  }
};

struct BadRequest {
  const char *name;
  std::function<void(amp_gemm_desc_t &)> mutate;
  amp_status_t status;
  const char *message; // a substring of amp_gemm_last_error()
};

void setRaw(void *field, int32_t value) {
  std::memcpy(field, &value, sizeof(value));
}

const BadRequest kBadRequests[] = {
    {"NullA", [](amp_gemm_desc_t &g) { g.a = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "A is NULL"},
    {"NullB", [](amp_gemm_desc_t &g) { g.b = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "B is NULL"},
    {"NullD", [](amp_gemm_desc_t &g) { g.d = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "D is NULL"},
    {"NullCWithBeta", [](amp_gemm_desc_t &g) { g.c = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "C (beta != 0) is NULL"},
    {"MissingBias", [](amp_gemm_desc_t &g) { g.bias = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "bias is NULL"},
    {"MissingAux", [](amp_gemm_desc_t &g) { g.aux = nullptr; },
     AMP_STATUS_INVALID_ARGUMENT, "aux is NULL"},
    {"BiasOnNonBiasEpilogue",
     [](amp_gemm_desc_t &g) { g.epilogue = AMP_GEMM_EPILOGUE_GELU_AUX; },
     AMP_STATUS_INVALID_ARGUMENT, "bias is given but epilogue GELU_AUX"},
    {"AuxOnNonAuxEpilogue",
     [](amp_gemm_desc_t &g) { g.epilogue = AMP_GEMM_EPILOGUE_BIAS; },
     AMP_STATUS_INVALID_ARGUMENT, "aux is given but epilogue BIAS"},
    {"MisalignedA",
     [](amp_gemm_desc_t &g) { g.a = static_cast<const char *>(g.a) + 1; },
     AMP_STATUS_INVALID_ARGUMENT, "A ("},
    {"MisalignedBias",
     [](amp_gemm_desc_t &g) { g.bias = static_cast<char *>(g.bias) + 1; },
     AMP_STATUS_INVALID_ARGUMENT, "not aligned"},
    {"ZeroM", [](amp_gemm_desc_t &g) { g.m = 0; }, AMP_STATUS_INVALID_ARGUMENT,
     "must be >= 1"},
    {"NegativeK", [](amp_gemm_desc_t &g) { g.k = -3; },
     AMP_STATUS_INVALID_ARGUMENT, "k=-3"},
    {"ZeroBatch", [](amp_gemm_desc_t &g) { g.batch_count = 0; },
     AMP_STATUS_INVALID_ARGUMENT, "batch_count=0"},
    {"TransNotBoolean", [](amp_gemm_desc_t &g) { g.trans_b = 2; },
     AMP_STATUS_INVALID_ARGUMENT, "trans_a and trans_b"},
    {"LdaTooSmall", [](amp_gemm_desc_t &g) { g.lda = 5; },
     AMP_STATUS_INVALID_ARGUMENT, "ld of A (5)"},
    {"LdaTooSmallTransposed",
     [](amp_gemm_desc_t &g) {
       g.trans_a = 1; // A is then stored 6 x 4: lda >= 4 is enough...
       g.lda = 3;     // ...and 3 is not
     },
     AMP_STATUS_INVALID_ARGUMENT, "ld of A (3)"},
    {"LdbTooSmall", [](amp_gemm_desc_t &g) { g.ldb = 4; },
     AMP_STATUS_INVALID_ARGUMENT, "ld of B"},
    {"LdcTooSmall", [](amp_gemm_desc_t &g) { g.ldc = 4; },
     AMP_STATUS_INVALID_ARGUMENT, "ld of C"},
    {"LddTooSmall", [](amp_gemm_desc_t &g) { g.ldd = 4; },
     AMP_STATUS_INVALID_ARGUMENT, "ld of D"},
    {"LdAuxTooSmall", [](amp_gemm_desc_t &g) { g.ld_aux = 0; },
     AMP_STATUS_INVALID_ARGUMENT, "ld of aux"},
    {"NegativeStride", [](amp_gemm_desc_t &g) { g.stride_b = -30; },
     AMP_STATUS_INVALID_ARGUMENT, "batch stride of B (-30) is negative"},
    {"BroadcastD", [](amp_gemm_desc_t &g) { g.stride_d = 0; },
     AMP_STATUS_INVALID_ARGUMENT, "output D"},
    {"OverlappingD", [](amp_gemm_desc_t &g) { g.stride_d = 19; },
     AMP_STATUS_INVALID_ARGUMENT, "batches would overlap"},
    {"BroadcastWrittenAux", [](amp_gemm_desc_t &g) { g.stride_aux = 0; },
     AMP_STATUS_INVALID_ARGUMENT, "output aux"},
    {"BroadcastBiasGradient",
     [](amp_gemm_desc_t &g) {
       g.epilogue = AMP_GEMM_EPILOGUE_DGELU_BGRAD; // bias is an output
     },
     AMP_STATUS_INVALID_ARGUMENT, "output bias"},
    {"HugeStride", [](amp_gemm_desc_t &g) { g.stride_a = INT64_C(1) << 62; },
     AMP_STATUS_INVALID_ARGUMENT, "INT64_MAX"},
    {"CAliasesDWithOtherLayout",
     [](amp_gemm_desc_t &g) {
       g.c = g.d;
       g.ldc = 6;
     },
     AMP_STATUS_INVALID_ARGUMENT, "C aliases D"},
    {"UnknownEpilogue", [](amp_gemm_desc_t &g) { setRaw(&g.epilogue, 99); },
     AMP_STATUS_INVALID_ARGUMENT, "unknown epilogue 99"},
    {"UnknownDtype", [](amp_gemm_desc_t &g) { setRaw(&g.d_dtype, -1); },
     AMP_STATUS_INVALID_ARGUMENT, "unknown d_dtype -1"},
    {"IntegerDtype",
     [](amp_gemm_desc_t &g) { g.a_dtype = g.b_dtype = AMP_DTYPE_I32; },
     AMP_STATUS_NOT_SUPPORTED, "A=i32 B=i32 D=f16"},
    {"MixedInputDtypes", [](amp_gemm_desc_t &g) { g.b_dtype = AMP_DTYPE_BF16; },
     AMP_STATUS_NOT_SUPPORTED, "A=f16 B=bf16"},
    {"F16ToBf16", [](amp_gemm_desc_t &g) { g.d_dtype = AMP_DTYPE_BF16; },
     AMP_STATUS_NOT_SUPPORTED, "D=bf16"},
    {"F32ToF16",
     [](amp_gemm_desc_t &g) { g.a_dtype = g.b_dtype = AMP_DTYPE_F32; },
     AMP_STATUS_NOT_SUPPORTED, "A=f32 B=f32 D=f16"},
};

/// Valid requests over these host buffers may only run on a host backend
/// (reference, cpu); the CUDA backend would hand them to the device.
bool runsOnHostPointers() {
  return std::strcmp(amp_gemm_backend_name(), "cuda") != 0;
}

TEST(GemmValidationMisc, TheValidRequestIsValid) {
  if (!runsOnHostPointers())
    GTEST_SKIP() << "needs a backend that takes host pointers";
  ValidRequest r;
  EXPECT_EQ(amp_gemm(&r.g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
}

class GemmValidation : public ::testing::TestWithParam<BadRequest> {};

TEST_P(GemmValidation, RejectsWithMessageAndWritesNothing) {
  ValidRequest r;
  GetParam().mutate(r.g);
  const std::vector<uint16_t> d = r.d, aux = r.aux, bias = r.bias;
  EXPECT_EQ(amp_gemm(&r.g, nullptr), GetParam().status);
  EXPECT_NE(std::string(amp_gemm_last_error()).find(GetParam().message),
            std::string::npos)
      << "message: " << amp_gemm_last_error();
  EXPECT_EQ(r.d, d);
  EXPECT_EQ(r.aux, aux);
  EXPECT_EQ(r.bias, bias);
}

INSTANTIATE_TEST_SUITE_P(BadRequests, GemmValidation,
                         ::testing::ValuesIn(kBadRequests),
                         [](const ::testing::TestParamInfo<BadRequest> &info) {
                           return std::string(info.param.name);
                         });

TEST(GemmValidationMisc, NullDescriptor) {
  EXPECT_EQ(amp_gemm(nullptr, nullptr), AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_STREQ(amp_gemm_last_error(), "amp_gemm: desc is NULL");
}

/// amp_gemm_with_pointers checks as amp_gemm does, on its arguments: a
/// valid descriptor's own d does not stand in for a NULL d argument.
TEST(GemmValidationMisc, WithPointersChecksItsArguments) {
  EXPECT_EQ(amp_gemm_with_pointers(nullptr, nullptr, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_STREQ(amp_gemm_last_error(), "amp_gemm: desc is NULL");
  ValidRequest r;
  const std::vector<uint16_t> d = r.d;
  EXPECT_EQ(amp_gemm_with_pointers(&r.g, r.g.a, r.g.b, r.g.c, nullptr, r.g.bias,
                                   r.g.aux, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_STREQ(amp_gemm_last_error(), "amp_gemm: D is NULL");
  EXPECT_EQ(r.d, d);
}

/// C may be NULL (and misaligned garbage is not inspected) when beta == 0.
TEST(GemmValidationMisc, CIsIgnoredWhenBetaIsZero) {
  if (!runsOnHostPointers())
    GTEST_SKIP() << "needs a backend that takes host pointers";
  ValidRequest r;
  r.g.beta = 0.0f;
  r.g.c = reinterpret_cast<const void *>(uintptr_t{1});
  r.g.ldc = 0;
  EXPECT_EQ(amp_gemm(&r.g, nullptr), AMP_STATUS_OK) << amp_gemm_last_error();
}

/// The message belongs to the thread whose call failed.
TEST(GemmValidationMisc, LastErrorIsPerThread) {
  EXPECT_EQ(amp_gemm(nullptr, nullptr), AMP_STATUS_INVALID_ARGUMENT);
  std::string other = "unset";
  std::thread([&] { other = amp_gemm_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_STRNE(amp_gemm_last_error(), "");
}

} // namespace
