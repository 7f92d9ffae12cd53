//===- ErrorTest.cpp - Argument checks shared by every kernel -------------===//
//
// The rejection rules of kernels.h across entry points: NULL and misaligned
// pointers, unknown enum values (passed from C, as lowered code does), bad
// ranks and dims, dtypes a kernel does not support, the thread-local last
// error (prefixed with the function name, cleared by a successful call), and
// that a rejected call writes nothing.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>
#include <thread>

using namespace amp::test;

extern "C" {
// KernelsC.c
int32_t ampTestUnaryRawOp(int32_t op);
int32_t ampTestBinaryRawOp(int32_t op);
int32_t ampTestCompareRawOp(int32_t op);
int32_t ampTestReduceRawOp(int32_t op);
int32_t ampTestUnaryRawDtype(int32_t dtype);
int32_t ampTestCompareRawDtype(int32_t dtype);
int32_t ampTestCastRawDtypes(int32_t x_dtype, int32_t y_dtype);
int32_t ampTestLrScheduleRawKind(int32_t kind);
int32_t ampTestElementwiseLossRawKind(int32_t kind);
int32_t ampTestAttentionRawDtypes(int32_t dtype, int32_t mask_dtype);
}

namespace {

TEST(KernelErrors, UnknownEnumValuesFromC) {
  EXPECT_EQ(ampTestUnaryRawOp(AMP_UNARY_ATANH), AMP_STATUS_OK);
  for (int32_t op : {27, 100, -1})
    EXPECT_TRUE(failsWith(static_cast<amp_status_t>(ampTestUnaryRawOp(op)),
                          AMP_STATUS_INVALID_ARGUMENT,
                          "amp_unary: unknown op " + std::to_string(op)));
  EXPECT_EQ(ampTestBinaryRawOp(AMP_BINARY_MOD), AMP_STATUS_OK);
  for (int32_t op : {9, -3})
    EXPECT_TRUE(failsWith(static_cast<amp_status_t>(ampTestBinaryRawOp(op)),
                          AMP_STATUS_INVALID_ARGUMENT, "unknown op"));
  EXPECT_EQ(ampTestCompareRawOp(AMP_COMPARE_EQ), AMP_STATUS_OK);
  EXPECT_EQ(ampTestCompareRawOp(AMP_COMPARE_GE), AMP_STATUS_OK);
  for (int32_t op : {6, -1, 100})
    EXPECT_TRUE(failsWith(static_cast<amp_status_t>(ampTestCompareRawOp(op)),
                          AMP_STATUS_INVALID_ARGUMENT,
                          "amp_compare: unknown op " + std::to_string(op)));
  EXPECT_EQ(ampTestElementwiseLossRawKind(AMP_LOSS_BCE_WITH_LOGITS),
            AMP_STATUS_OK);
  for (int32_t kind : {4, 9, -1})
    EXPECT_TRUE(failsWith(
        static_cast<amp_status_t>(ampTestElementwiseLossRawKind(kind)),
        AMP_STATUS_INVALID_ARGUMENT,
        "amp_elementwise_loss: unknown loss " + std::to_string(kind)));
  EXPECT_EQ(ampTestReduceRawOp(AMP_REDUCE_MAX), AMP_STATUS_OK);
  EXPECT_TRUE(failsWith(static_cast<amp_status_t>(ampTestReduceRawOp(3)),
                        AMP_STATUS_INVALID_ARGUMENT, "unknown op 3"));
  for (int32_t dtype : {6, 100, -1})
    EXPECT_TRUE(failsWith(
        static_cast<amp_status_t>(ampTestUnaryRawDtype(dtype)),
        AMP_STATUS_INVALID_ARGUMENT, "unknown dtype " + std::to_string(dtype)));
  for (int32_t dtype : {-1, 100}) {
    EXPECT_TRUE(
        failsWith(static_cast<amp_status_t>(ampTestCompareRawDtype(dtype)),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "amp_compare: unknown dtype " + std::to_string(dtype)));
    EXPECT_TRUE(failsWith(
        static_cast<amp_status_t>(ampTestCastRawDtypes(dtype, AMP_DTYPE_I64)),
        AMP_STATUS_INVALID_ARGUMENT,
        "amp_cast: unknown x_dtype " + std::to_string(dtype)));
    EXPECT_TRUE(failsWith(
        static_cast<amp_status_t>(ampTestCastRawDtypes(AMP_DTYPE_F32, dtype)),
        AMP_STATUS_INVALID_ARGUMENT,
        "amp_cast: unknown y_dtype " + std::to_string(dtype)));
  }
  for (int32_t kind : {AMP_LR_SCHEDULE_EXPONENTIAL, AMP_LR_SCHEDULE_POLYNOMIAL,
                       AMP_LR_SCHEDULE_MULTISTEP})
    EXPECT_EQ(ampTestLrScheduleRawKind(kind), AMP_STATUS_OK) << kind;
  for (int32_t kind : {7, 8, 100, -1, INT32_MIN})
    EXPECT_TRUE(
        failsWith(static_cast<amp_status_t>(ampTestLrScheduleRawKind(kind)),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "amp_lr_schedule: unknown kind " + std::to_string(kind)));
  EXPECT_EQ(ampTestCastRawDtypes(AMP_DTYPE_F32, AMP_DTYPE_I64), AMP_STATUS_OK);
  EXPECT_EQ(ampTestAttentionRawDtypes(AMP_DTYPE_F32, AMP_DTYPE_F32),
            AMP_STATUS_OK);
  for (int32_t dtype : {6, 100, -1}) {
    EXPECT_TRUE(
        failsWith(static_cast<amp_status_t>(
                      ampTestAttentionRawDtypes(dtype, AMP_DTYPE_F32)),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "amp_attention: unknown dtype " + std::to_string(dtype)));
    EXPECT_TRUE(failsWith(static_cast<amp_status_t>(
                              ampTestAttentionRawDtypes(AMP_DTYPE_F32, dtype)),
                          AMP_STATUS_INVALID_ARGUMENT,
                          "amp_attention: unknown mask_dtype " +
                              std::to_string(dtype)));
  }
  EXPECT_TRUE(
      failsWith(static_cast<amp_status_t>(ampTestUnaryRawDtype(AMP_DTYPE_I64)),
                AMP_STATUS_NOT_SUPPORTED, "dtype is i64"));
  EXPECT_TRUE(failsWith(
      static_cast<amp_status_t>(ampTestUnaryRawDtype(AMP_DTYPE_BOOL)),
      AMP_STATUS_NOT_SUPPORTED, "dtype is bool; expected f32, f16 or bf16"));
}

TEST(KernelErrors, NullPointersAreRejectedEverywhere) {
  float a[16] = {}, b[16] = {}, c[16] = {};
  const int64_t dims[] = {4, 4};
  int32_t ids[4] = {};
  float stat[4], loss, step = 0;
  int8_t flag = 0;
  // One call per entry point, each with one required pointer NULL.
  const std::vector<std::pair<std::string, std::function<amp_status_t()>>>
      calls = {
          {"amp_unary: x is NULL",
           [&] {
             return amp_unary(AMP_UNARY_EXP, nullptr, b, 16, AMP_DTYPE_F32,
                              nullptr);
           }},
          {"amp_relu_grad: dx is NULL",
           [&] {
             return amp_relu_grad(a, b, nullptr, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_binary: rhs is NULL",
           [&] {
             return amp_binary(AMP_BINARY_ADD, a, nullptr, c, dims, 2, dims, 2,
                               dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_binary: dims of lhs are NULL",
           [&] {
             return amp_binary(AMP_BINARY_ADD, a, b, c, nullptr, 2, dims, 2,
                               dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_compare: lhs is NULL",
           [&] {
             return amp_compare(AMP_COMPARE_EQ, nullptr, b, &flag, dims, 2,
                                nullptr, 0, dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_compare: out is NULL",
           [&] {
             return amp_compare(AMP_COMPARE_LT, a, b, nullptr, dims, 2, dims, 2,
                                dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_compare: dims of rhs are NULL",
           [&] {
             return amp_compare(AMP_COMPARE_NE, a, b, c, dims, 2, nullptr, 2,
                                dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_cast: x is NULL",
           [&] {
             return amp_cast(nullptr, b, 16, AMP_DTYPE_I64, AMP_DTYPE_BOOL,
                             nullptr);
           }},
          {"amp_cast: y is NULL",
           [&] {
             return amp_cast(a, nullptr, 16, AMP_DTYPE_F32, AMP_DTYPE_F16,
                             nullptr);
           }},
          {"amp_fill: y is NULL",
           [&] { return amp_fill(nullptr, 3, AMP_DTYPE_F16, 1.0f, nullptr); }},
          {"amp_transpose: x is NULL",
           [&] {
             const int64_t perm[] = {1, 0};
             return amp_transpose(nullptr, b, dims, 2, perm, AMP_DTYPE_F32,
                                  nullptr);
           }},
          {"amp_reduce: y is NULL",
           [&] {
             const int64_t axis = 0;
             return amp_reduce(AMP_REDUCE_SUM, a, nullptr, dims, 2, &axis, 1,
                               AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_softmax_grad: y is NULL",
           [&] {
             return amp_softmax_grad(a, nullptr, c, dims, 2, AMP_DTYPE_F32, -1,
                                     nullptr);
           }},
          {"amp_layer_norm_grad: rstd is NULL",
           [&] {
             return amp_layer_norm_grad(
                 a, b, stat, nullptr, nullptr, c, nullptr, nullptr, dims, 2,
                 AMP_DTYPE_F32, AMP_DTYPE_F32, 1, nullptr);
           }},
          {"amp_batch_norm: invstd is NULL",
           [&] {
             return amp_batch_norm(a, nullptr, nullptr, b, stat, nullptr, dims,
                                   2, AMP_DTYPE_F32, AMP_DTYPE_F32,
                                   AMP_DTYPE_F32, 1e-5f, nullptr);
           }},
          {"amp_conv2d: dims of w_dims are NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4};
             return amp_conv2d(a, b, c, x4, nullptr, x4, AMP_DTYPE_F32,
                               AMP_DTYPE_F32, nullptr, nullptr, nullptr, 1,
                               nullptr);
           }},
          {"amp_embedding: ids is NULL",
           [&] {
             return amp_embedding(a, nullptr, b, 4, 4, 2, AMP_DTYPE_F32,
                                  AMP_DTYPE_I32, nullptr);
           }},
          {"amp_embedding_grad: dtable is NULL",
           [&] {
             return amp_embedding_grad(a, ids, nullptr, 4, 4, 4,
                                       AMP_IGNORE_NONE, 0, AMP_DTYPE_F32,
                                       AMP_DTYPE_I32, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_cross_entropy: loss is NULL",
           [&] {
             return amp_cross_entropy(a, ids, nullptr, 4, 4, AMP_IGNORE_NONE,
                                      0.0f, AMP_DTYPE_F32, AMP_DTYPE_I32,
                                      nullptr);
           }},
          {"amp_cross_entropy_grad: grad_loss is NULL",
           [&] {
             return amp_cross_entropy_grad(
                 nullptr, a, ids, b, 4, 4, AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                 AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr);
           }},
          {"amp_lr_schedule: factor is NULL",
           [&] {
             return amp_lr_schedule(&step, nullptr, &step,
                                    AMP_LR_SCHEDULE_CONSTANT, 0, 0.0f, 0, 0.0f,
                                    0, 0.0f, 1.0f, nullptr, 0, nullptr);
           }},
          {"amp_sgd_update: grad is NULL",
           [&] {
             return amp_sgd_update(a, nullptr, nullptr, a, nullptr, 16,
                                   AMP_DTYPE_F32, 0.1f, nullptr, 0.0f, 0.0f,
                                   0.0f, 0, &flag, nullptr);
           }},
          {"amp_adam_update: new_exp_avg_sq is NULL",
           [&] {
             return amp_adam_update(a, b, c, c, &step, nullptr, a, c, nullptr,
                                    &step, nullptr, 16, AMP_DTYPE_F32, 1e-3f,
                                    nullptr, 0.9f, 0.999f, 1e-8f, 0.0f, 1, 0,
                                    nullptr, nullptr);
           }},
          {"amp_clip_grad_norm: total_norm is NULL",
           [&] {
             const void *in[] = {a};
             void *out[] = {a};
             const int64_t n = 16;
             const amp_dtype_t d = AMP_DTYPE_F32;
             return amp_clip_grad_norm(1, in, out, &n, &d, 1.0f, 2.0f, nullptr,
                                       nullptr);
           }},
          {"amp_clip_grad_value: clip_value (0) must be > 0",
           [&] {
             const void *in[] = {a};
             void *out[] = {a};
             const int64_t n = 16;
             const amp_dtype_t d = AMP_DTYPE_F32;
             return amp_clip_grad_value(1, in, out, &n, &d, 0.0f, nullptr);
           }},
          {"amp_unscale_and_check: found_inf is NULL",
           [&] {
             const void *in[] = {a};
             void *out[] = {a};
             const int64_t n = 16;
             const amp_dtype_t d = AMP_DTYPE_F32;
             const float scale = 2.0f;
             return amp_unscale_and_check(1, in, out, &n, &d, &scale, nullptr,
                                          nullptr);
           }},
          {"amp_memcpy: dst is NULL",
           [&] { return amp_memcpy(nullptr, a, 4, nullptr); }},
          {"amp_tanh_grad: y is NULL",
           [&] {
             return amp_tanh_grad(a, nullptr, c, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_sigmoid_grad: dx is NULL",
           [&] {
             return amp_sigmoid_grad(a, b, nullptr, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_sqrt_grad: dy is NULL",
           [&] {
             return amp_sqrt_grad(nullptr, b, c, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_rsqrt_grad: y is NULL",
           [&] {
             return amp_rsqrt_grad(a, nullptr, c, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_abs_grad: x is NULL",
           [&] {
             return amp_abs_grad(a, nullptr, c, 16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_pow: y is NULL",
           [&] {
             return amp_pow(a, nullptr, 16, AMP_DTYPE_F32, 2.0f, nullptr);
           }},
          {"amp_pow_grad: x is NULL",
           [&] {
             return amp_pow_grad(a, nullptr, c, 16, AMP_DTYPE_F32, 2.0f,
                                 nullptr);
           }},
          {"amp_clamp: x is NULL",
           [&] {
             return amp_clamp(nullptr, b, 16, AMP_DTYPE_F32, 0.0f, 1.0f,
                              nullptr);
           }},
          {"amp_clamp_grad: dx is NULL",
           [&] {
             return amp_clamp_grad(a, b, nullptr, 16, AMP_DTYPE_F32, 0.0f, 1.0f,
                                   nullptr);
           }},
          {"amp_where: lhs is NULL",
           [&] {
             return amp_where(&flag, nullptr, b, c, nullptr, 0, dims, 2, dims,
                              2, dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_where_grad: drhs is NULL",
           [&] {
             return amp_where_grad(a, &flag, b, nullptr, dims, 2, nullptr, 0,
                                   AMP_DTYPE_F32, nullptr);
           }},
          {"amp_maximum_grad: rhs is NULL",
           [&] {
             return amp_maximum_grad(a, b, nullptr, c, a, dims, 2, dims, 2,
                                     dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_minimum_grad: drhs is NULL",
           [&] {
             return amp_minimum_grad(a, b, c, a, nullptr, dims, 2, dims, 2,
                                     dims, 2, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_dropout: y is NULL",
           [&] {
             const int64_t seed = 0;
             return amp_dropout(a, &seed, nullptr, 16, AMP_DTYPE_F32, 0.5f, 1,
                                nullptr);
           }},
          {"amp_concat: input 0 is NULL",
           [&] {
             const void *in[] = {nullptr};
             const int64_t size = 4;
             return amp_concat(1, in, a, dims, 2, &size, AMP_DTYPE_F32, 0,
                               nullptr);
           }},
          {"amp_slice: x is NULL",
           [&] {
             const int64_t off[] = {0, 0};
             return amp_slice(nullptr, b, dims, dims, 2, off, nullptr,
                              AMP_DTYPE_F32, nullptr);
           }},
          {"amp_slice_grad: dy is NULL",
           [&] {
             const int64_t off[] = {0, 0};
             return amp_slice_grad(nullptr, b, dims, dims, 2, off, nullptr,
                                   AMP_DTYPE_F32, nullptr);
           }},
          {"amp_pad: y is NULL",
           [&] {
             const int64_t zero[] = {0, 0};
             return amp_pad(a, nullptr, dims, 2, zero, zero, AMP_DTYPE_F32,
                            0.0f, nullptr);
           }},
          {"amp_reduce_max_grad: y is NULL",
           [&] {
             const int64_t axis = 0;
             return amp_reduce_max_grad(a, b, nullptr, c, dims, 2, &axis, 1,
                                        AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_cumsum: y is NULL",
           [&] {
             return amp_cumsum(a, nullptr, dims, 2, -1, 1, 0, AMP_DTYPE_F32,
                               nullptr);
           }},
          {"amp_argmax: x is NULL",
           [&] {
             int64_t y[4];
             return amp_argmax(nullptr, y, dims, 2, 0, 0, AMP_DTYPE_F32,
                               nullptr);
           }},
          {"amp_topk: x is NULL",
           [&] {
             int64_t y[4];
             return amp_topk(nullptr, y, dims, 2, 0, 1, 0, AMP_DTYPE_F32,
                             nullptr);
           }},
          {"amp_max_pool2d: y is NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4}, k[] = {1, 1};
             return amp_max_pool2d(a, nullptr, x4, x4, AMP_DTYPE_F32, k,
                                   nullptr, nullptr, nullptr, nullptr);
           }},
          {"amp_max_pool2d_grad: dx is NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4}, k[] = {1, 1};
             return amp_max_pool2d_grad(a, b, nullptr, x4, x4, AMP_DTYPE_F32, k,
                                        nullptr, nullptr, nullptr, nullptr);
           }},
          {"amp_avg_pool2d: x is NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4}, k[] = {1, 1};
             return amp_avg_pool2d(nullptr, b, x4, x4, AMP_DTYPE_F32, k,
                                   nullptr, nullptr, 0, nullptr);
           }},
          {"amp_avg_pool2d_grad: dx is NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4}, k[] = {1, 1};
             return amp_avg_pool2d_grad(a, nullptr, x4, x4, AMP_DTYPE_F32, k,
                                        nullptr, nullptr, 1, nullptr);
           }},
          {"amp_global_avg_pool: x is NULL",
           [&] {
             const int64_t x4[] = {1, 1, 4, 4};
             return amp_global_avg_pool(nullptr, b, x4, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_elementwise_loss: pred is NULL",
           [&] {
             return amp_elementwise_loss(AMP_LOSS_MSE, 0, nullptr, b, &loss, 16,
                                         16, AMP_DTYPE_F32, nullptr);
           }},
          {"amp_attention: v is NULL",
           [&] {
             return amp_attention(a, b, nullptr, nullptr, c, stat, dims, 2, 4,
                                  4, 1, nullptr, AMP_DTYPE_F32, AMP_DTYPE_F32,
                                  0.5f, 0, nullptr, 0.0f, nullptr);
           }},
          {"amp_attention_grad: dq is NULL",
           [&] {
             return amp_attention_grad(a, b, b, b, nullptr, b, stat, nullptr, c,
                                       c, dims, 2, 4, 4, 1, nullptr,
                                       AMP_DTYPE_F32, AMP_DTYPE_F32, 0.5f, 1,
                                       nullptr, 0.0f, nullptr);
           }},
          {"amp_elementwise_loss_grad: dpred is NULL",
           [&] {
             return amp_elementwise_loss_grad(AMP_LOSS_L1, 0, a, b, c, nullptr,
                                              16, 1, AMP_DTYPE_F32,
                                              AMP_DTYPE_F32, nullptr);
           }},
      };
  for (const auto &[message, call] : calls)
    EXPECT_TRUE(failsWith(call(), AMP_STATUS_INVALID_ARGUMENT, message))
        << message;
}

TEST(KernelErrors, MisalignedPointers) {
  alignas(8) float buffer[8] = {};
  const void *odd = reinterpret_cast<const char *>(buffer) + 2;
  EXPECT_TRUE(failsWith(
      amp_unary(AMP_UNARY_NEG, odd, buffer, 4, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "x ("));
  EXPECT_TRUE(failsWith(
      amp_unary(AMP_UNARY_NEG, odd, buffer, 4, AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT,
      "not aligned to its element size (4 bytes)"));
  // 2-byte alignment is enough for f16.
  EXPECT_TRUE(
      isOk(amp_unary(AMP_UNARY_NEG, odd, buffer, 4, AMP_DTYPE_F16, nullptr)));
  int64_t ids[2] = {0, 0};
  const void *oddIds = reinterpret_cast<const char *>(ids) + 4;
  EXPECT_TRUE(failsWith(amp_embedding(buffer, oddIds, buffer + 4, 2, 2, 1,
                                      AMP_DTYPE_F32, AMP_DTYPE_I64, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "ids"));
}

TEST(KernelErrors, RanksAndDims) {
  float x[4] = {}, y[4] = {};
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 4};
  EXPECT_TRUE(failsWith(amp_softmax(x, y, nine, 9, AMP_DTYPE_F32, 0, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "rank of x (9)"));
  EXPECT_TRUE(isOk(amp_softmax(x, y, nine, 8, AMP_DTYPE_F32, 0, nullptr)));
  EXPECT_TRUE(failsWith(amp_softmax(x, y, nine, -1, AMP_DTYPE_F32, 0, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "rank of x (-1)"));
  const int64_t negative[] = {2, -2};
  EXPECT_TRUE(
      failsWith(amp_softmax(x, y, negative, 2, AMP_DTYPE_F32, 0, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "dimension 1 of x is negative"));
  const int64_t huge[] = {int64_t{1} << 40, int64_t{1} << 30};
  EXPECT_TRUE(failsWith(amp_softmax(x, y, huge, 2, AMP_DTYPE_F32, 0, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "too many elements"));
  EXPECT_TRUE(
      failsWith(amp_unary(AMP_UNARY_NEG, x, y, -1, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "n (-1)"));
  // Zero elements, but strides of 2^62 * 2^62: rejected in any dim order
  // (a running product would reach 0 first and accept [0, 2^62, 2^62]).
  const int64_t zeroFirst[] = {0, int64_t{1} << 62, int64_t{1} << 62};
  const int64_t zeroLast[] = {int64_t{1} << 62, int64_t{1} << 62, 0};
  for (const int64_t *dims : {zeroFirst, zeroLast})
    EXPECT_TRUE(
        failsWith(amp_softmax(nullptr, nullptr, dims, 3, AMP_DTYPE_F32, 0,
                              nullptr),
                  AMP_STATUS_INVALID_ARGUMENT, "x has too many elements"));
}

TEST(KernelErrors, EmptyTensorsNeedNoPointers) {
  const int64_t empty[] = {3, 0};
  EXPECT_TRUE(isOk(
      amp_unary(AMP_UNARY_EXP, nullptr, nullptr, 0, AMP_DTYPE_BF16, nullptr)));
  EXPECT_TRUE(
      isOk(amp_softmax(nullptr, nullptr, empty, 2, AMP_DTYPE_F16, 1, nullptr)));
  EXPECT_TRUE(isOk(amp_binary(AMP_BINARY_ADD, nullptr, nullptr, nullptr, empty,
                              2, empty, 2, empty, 2, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(
      isOk(amp_where(nullptr, nullptr, nullptr, nullptr, empty, 2, empty, 2,
                     empty, 2, empty, 2, AMP_DTYPE_BOOL, nullptr)));
  EXPECT_TRUE(
      isOk(amp_maximum_grad(nullptr, nullptr, nullptr, nullptr, nullptr, empty,
                            2, empty, 2, empty, 2, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(isOk(amp_pow_grad(nullptr, nullptr, nullptr, 0, AMP_DTYPE_BF16,
                                3.0f, nullptr)));
  const int64_t offsets[] = {0, 5};
  EXPECT_TRUE(isOk(amp_slice_grad(nullptr, nullptr, empty, empty, 2, offsets,
                                  nullptr, AMP_DTYPE_F32, nullptr)));
  const int64_t zero[] = {0, 0};
  EXPECT_TRUE(isOk(amp_pad(nullptr, nullptr, empty, 2, zero, zero,
                           AMP_DTYPE_F16, 1.0f, nullptr)));
  // A transpose whose blocked copy has rows or columns but no image: no
  // offset is applied to the NULL pointers (UBSan; amp-kernel-args-fuzzer).
  const int64_t leadingZero[] = {0, 2, 3}, reversed[] = {2, 1, 0};
  EXPECT_TRUE(isOk(amp_transpose(nullptr, nullptr, leadingZero, 3, reversed,
                                 AMP_DTYPE_F32, nullptr)));
  // No elements but a 2^59-long axis or 2^59 classes: no row scratch is
  // allocated (it failed as out of memory; amp-kernel-args-fuzzer).
  const int64_t longAxis[] = {0, int64_t{1} << 59};
  EXPECT_TRUE(isOk(
      amp_softmax(nullptr, nullptr, longAxis, 2, AMP_DTYPE_F32, 1, nullptr)));
  EXPECT_TRUE(isOk(amp_softmax_grad(nullptr, nullptr, nullptr, longAxis, 2,
                                    AMP_DTYPE_F32, 1, nullptr)));
  // No query row and head dims of 0 (every buffer empty) but 2^55 keys: the
  // gradient allocates no row scratch (amp-kernel-args-fuzzer).
  const int64_t noRows[] = {1, 0, 0};
  EXPECT_TRUE(isOk(amp_attention(nullptr, nullptr, nullptr, nullptr, nullptr,
                                 nullptr, noRows, 3, int64_t{1} << 55, 0, 1,
                                 nullptr, AMP_DTYPE_F32, AMP_DTYPE_F32, 1.0f, 0,
                                 nullptr, 0.0f, nullptr)));
  EXPECT_TRUE(isOk(amp_attention_grad(
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, noRows, 3, int64_t{1} << 55, 0, 1, nullptr,
      AMP_DTYPE_F32, AMP_DTYPE_F32, 1.0f, 1, nullptr, 0.0f, nullptr)));
  float loss = 0.0f;
  EXPECT_TRUE(isOk(amp_cross_entropy(nullptr, nullptr, &loss, 0,
                                     int64_t{1} << 59, AMP_IGNORE_NONE, 0.0f,
                                     AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr)));
}

TEST(KernelErrors, CompareArguments) {
  alignas(8) int32_t a[12] = {}, b[12] = {};
  alignas(8) uint8_t out[16] = {};
  const int64_t d34[] = {3, 4}, d4[] = {4}, d3[] = {3}, d31[] = {3, 1},
                d43[] = {4, 3}, negative[] = {3, -4};
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 12};
  auto compare = [&](const void *lhs, const void *rhs, void *o,
                     const int64_t *ld, int32_t lr, const int64_t *rd,
                     int32_t rr, const int64_t *od, int32_t orank,
                     amp_dtype_t dtype) {
    return amp_compare(AMP_COMPARE_LE, lhs, rhs, o, ld, lr, rd, rr, od, orank,
                       dtype, nullptr);
  };
  // Well-formed calls, to see that the failures below are the arguments'.
  EXPECT_TRUE(isOk(compare(a, b, out, d34, 2, d4, 1, d34, 2, AMP_DTYPE_I32)));
  EXPECT_TRUE(isOk(compare(a, b, out, d31, 2, d4, 1, d34, 2, AMP_DTYPE_I32)));
  EXPECT_TRUE(isOk(compare(a, b, out, nine + 1, 8, nullptr, 0, nine + 1, 8,
                           AMP_DTYPE_BOOL)));

  // Dtypes: any known one; unknown values are INVALID_ARGUMENT.
  // (Values outside the enum's range come from C: UnknownEnumValuesFromC.)
  for (int32_t raw : {6, 7})
    EXPECT_TRUE(
        failsWith(compare(a, b, out, d4, 1, d4, 1, d4, 1, badDtype(raw)),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "amp_compare: unknown dtype " + std::to_string(raw)));
  // Shapes.
  EXPECT_TRUE(
      failsWith(compare(a, b, out, d34, 2, d3, 1, d34, 2, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT,
                "amp_compare: lhs and rhs do not broadcast: dimension "
                "1 is 4 vs 3"));
  EXPECT_TRUE(
      failsWith(compare(a, b, out, d34, 2, d4, 1, d43, 2, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT,
                "amp_compare: out's shape is not the broadcast"));
  EXPECT_TRUE(failsWith(compare(a, b, out, d4, 1, d4, 1, d34, 2, AMP_DTYPE_I32),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "out's shape is not the broadcast"));
  EXPECT_TRUE(
      failsWith(compare(a, b, out, nine, 9, d4, 1, nine, 9, AMP_DTYPE_I32),
                AMP_STATUS_NOT_SUPPORTED,
                "amp_compare: rank of lhs (9) is not in [0, 8]"));
  EXPECT_TRUE(failsWith(compare(a, b, out, d4, 1, d4, -1, d4, 1, AMP_DTYPE_I32),
                        AMP_STATUS_INVALID_ARGUMENT, "rank of rhs (-1)"));
  EXPECT_TRUE(failsWith(
      compare(a, b, out, d4, 1, d4, 1, negative, 2, AMP_DTYPE_I32),
      AMP_STATUS_INVALID_ARGUMENT, "dimension 1 of out is negative (-4)"));
  EXPECT_TRUE(
      failsWith(compare(a, b, out, d4, 1, d4, 1, nullptr, 1, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT, "dims of out are NULL"));
  // Pointers: NULL, misaligned (out is bool: any byte is aligned).
  EXPECT_TRUE(
      failsWith(compare(a, nullptr, out, d4, 1, d4, 1, d4, 1, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT, "amp_compare: rhs is NULL"));
  const void *odd = reinterpret_cast<const char *>(a) + 2;
  EXPECT_TRUE(
      failsWith(compare(odd, b, out, d4, 1, d4, 1, d4, 1, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT, "amp_compare: lhs ("));
  EXPECT_TRUE(
      failsWith(compare(odd, b, out, d4, 1, d4, 1, d4, 1, AMP_DTYPE_I32),
                AMP_STATUS_INVALID_ARGUMENT,
                "not aligned to its element size (4 bytes)"));
  EXPECT_TRUE(isOk(compare(a, b, out + 1, d4, 1, d4, 1, d4, 1, AMP_DTYPE_I32)));
  // out overlaps an operand, even a same-shape bool one.
  EXPECT_TRUE(failsWith(
      compare(out, b, out, d4, 1, d4, 1, d4, 1, AMP_DTYPE_BOOL),
      AMP_STATUS_INVALID_ARGUMENT, "amp_compare: out aliases lhs or rhs"));
  EXPECT_TRUE(
      failsWith(compare(a, out, out, d4, 1, d4, 1, d4, 1, AMP_DTYPE_BOOL),
                AMP_STATUS_INVALID_ARGUMENT, "out aliases lhs or rhs"));
  // No elements: no pointers needed, nothing written.
  const int64_t empty[] = {0, 4};
  EXPECT_TRUE(isOk(compare(nullptr, nullptr, nullptr, empty, 2, empty, 2, empty,
                           2, AMP_DTYPE_I64)));
  EXPECT_TRUE(isOk(
      compare(nullptr, b, nullptr, empty, 2, d4, 1, empty, 2, AMP_DTYPE_I32)));
}

TEST(KernelErrors, CastArguments) {
  alignas(8) float x[8] = {};
  alignas(8) int64_t y[8] = {};
  // Every pair of known dtypes is supported; unknown ones are rejected.
  // (Values outside the enum's range come from C: UnknownEnumValuesFromC.)
  for (int32_t raw : {6, 7})
    EXPECT_TRUE(
        failsWith(amp_cast(x, y, 4, badDtype(raw), AMP_DTYPE_I64, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "amp_cast: unknown x_dtype " + std::to_string(raw)));
  EXPECT_TRUE(failsWith(amp_cast(x, y, 4, AMP_DTYPE_F32, badDtype(7), nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "amp_cast: unknown y_dtype 7"));
  EXPECT_TRUE(failsWith(
      amp_cast(x, y, -1, AMP_DTYPE_F32, AMP_DTYPE_I64, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_cast: n (-1) is out of range"));
  const void *odd = reinterpret_cast<const char *>(y) + 4;
  EXPECT_TRUE(failsWith(amp_cast(x, const_cast<void *>(odd), 2, AMP_DTYPE_F32,
                                 AMP_DTYPE_I64, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "y (")); // i64: 8-byte alignment
  EXPECT_TRUE(isOk(amp_cast(x, const_cast<void *>(odd), 2, AMP_DTYPE_F32,
                            AMP_DTYPE_I32, nullptr)));
  EXPECT_TRUE(
      failsWith(amp_cast(y, y, 4, AMP_DTYPE_I64, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT,
                "amp_cast: y aliases x but the dtypes differ"));
  EXPECT_TRUE(
      failsWith(amp_cast(nullptr, y, 1, AMP_DTYPE_BOOL, AMP_DTYPE_I64, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "amp_cast: x is NULL"));
  EXPECT_TRUE(isOk(
      amp_cast(nullptr, nullptr, 0, AMP_DTYPE_I64, AMP_DTYPE_BF16, nullptr)));
}

TEST(KernelErrors, LastErrorIsThreadLocalAndClearedBySuccess) {
  float x = 1, y;
  ASSERT_NE(amp_unary(AMP_UNARY_EXP, nullptr, &y, 1, AMP_DTYPE_F32, nullptr),
            AMP_STATUS_OK);
  EXPECT_NE(std::string(amp_kernel_last_error()), "");
  std::string other = "unset";
  std::thread([&] { other = amp_kernel_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_NE(std::string(amp_kernel_last_error()), "");
  EXPECT_TRUE(
      isOk(amp_unary(AMP_UNARY_EXP, &x, &y, 1, AMP_DTYPE_F32, nullptr)));
  EXPECT_STREQ(amp_kernel_last_error(), "");
}

TEST(KernelErrors, ScratchAllocationFailureIsAStatus) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan aborts on impossible allocations instead of throwing";
#endif
  // A 2^50-element normalized shape: the f32 scale scratch (4 PiB) cannot be
  // allocated, which must come back as a status, not as an exception through
  // the C ABI. x and y are never touched.
  alignas(8) static float dummy[2];
  float mean, rstd;
  const int64_t dims[] = {1, int64_t{1} << 50};
  EXPECT_TRUE(failsWith(amp_layer_norm(dummy, nullptr, nullptr, dummy, &mean,
                                       &rstd, dims, 2, AMP_DTYPE_F32,
                                       AMP_DTYPE_F32, AMP_DTYPE_F32, 1, 1e-5f,
                                       nullptr),
                        AMP_STATUS_BACKEND_ERROR, "out of memory"));
}

TEST(KernelErrors, RejectedCallsWriteNothing) {
  std::mt19937 rng(3);
  Tensor x = randomTensor(AMP_DTYPE_F32, {4, 6}, rng);
  Tensor y = sentinelTensor(AMP_DTYPE_F32, {4, 6});
  const Tensor before = y;
  const int64_t wrong[] = {4, 5};
  EXPECT_NE(amp_binary(AMP_BINARY_ADD, x.data(), x.data(), y.data(), x.dims(),
                       2, x.dims(), 2, wrong, 2, AMP_DTYPE_F32, nullptr),
            AMP_STATUS_OK);
  EXPECT_NE(amp_layer_norm(x.data(), nullptr, nullptr, y.data(), nullptr,
                           nullptr, x.dims(), 2, AMP_DTYPE_F32, AMP_DTYPE_F32,
                           AMP_DTYPE_F32, 5, 1e-5f, nullptr),
            AMP_STATUS_OK);
  EXPECT_NE(
      amp_cast(x.data(), y.data(), 24, AMP_DTYPE_F32, badDtype(6), nullptr),
      AMP_STATUS_OK);
  EXPECT_NE(amp_compare(AMP_COMPARE_EQ, x.data(), x.data(), y.data(), x.dims(),
                        2, x.dims(), 2, wrong, 2, AMP_DTYPE_F32, nullptr),
            AMP_STATUS_OK);
  EXPECT_NE(amp_compare(AMP_COMPARE_EQ, x.data(), x.data(), y.data(), x.dims(),
                        2, x.dims(), 2, x.dims(), 2, badDtype(7), nullptr),
            AMP_STATUS_OK);
  const int64_t x4[] = {1, 1, 4, 6}, y4[] = {1, 1, 4, 6}, k[] = {3, 3};
  EXPECT_NE(amp_max_pool2d(x.data(), y.data(), x4, y4, AMP_DTYPE_F32, k,
                           nullptr, nullptr, nullptr, nullptr),
            AMP_STATUS_OK);
  const void *inputs[] = {x.data(), x.data()};
  const int64_t sizes[] = {2, 1};
  EXPECT_NE(amp_concat(2, inputs, y.data(), x.dims(), 2, sizes, AMP_DTYPE_F32,
                       0, nullptr),
            AMP_STATUS_OK);
  const int64_t seed = 1;
  EXPECT_NE(amp_dropout(x.data(), &seed, y.data(), 24, AMP_DTYPE_F32, 1.0f, 1,
                        nullptr),
            AMP_STATUS_OK);
  EXPECT_TRUE(y.sameBits(before));
}

} // namespace
