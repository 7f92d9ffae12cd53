/*===- KernelsC.c - kernels.h as strict C99, and raw enum arguments -------===
 *
 * Compiled as C99 with -Wpedantic: the kernel ABI is plain C. Also the
 * callers that pass enum values outside the enumerators, as lowered code may
 * (an i32 in a register); in C an enum is an integer type, so these calls are
 * well defined here, where the C++ tests could not form such values.
 *
 *===----------------------------------------------------------------------===*/

#include "amp_runtime/kernels.h"

#include <stddef.h>

/* Declared in ErrorTest.cpp. */
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

int32_t ampTestUnaryRawOp(int32_t op) {
  float x = 1.0f, y = 0.0f;
  return (int32_t)amp_unary((amp_unary_op_t)op, &x, &y, 1, AMP_DTYPE_F32, NULL);
}

int32_t ampTestBinaryRawOp(int32_t op) {
  float a = 1.0f, b = 2.0f, c = 0.0f;
  int64_t dims[1] = {1};
  return (int32_t)amp_binary((amp_binary_op_t)op, &a, &b, &c, dims, 1, dims, 1,
                             dims, 1, AMP_DTYPE_F32, NULL);
}

int32_t ampTestCompareRawOp(int32_t op) {
  int32_t a = 1, b = 2;
  int8_t c = 7;
  int64_t dims[1] = {1};
  return (int32_t)amp_compare((amp_compare_op_t)op, &a, &b, &c, dims, 1, dims,
                              1, dims, 1, AMP_DTYPE_I32, NULL);
}

int32_t ampTestReduceRawOp(int32_t op) {
  float x[2] = {1.0f, 2.0f}, y = 0.0f;
  int64_t dims[1] = {2}, axes[1] = {0};
  return (int32_t)amp_reduce((amp_reduce_op_t)op, x, &y, dims, 1, axes, 1,
                             AMP_DTYPE_F32, AMP_DTYPE_F32, NULL);
}

int32_t ampTestUnaryRawDtype(int32_t dtype) {
  float x = 1.0f, y = 0.0f;
  return (int32_t)amp_unary(AMP_UNARY_NEG, &x, &y, 1, (amp_dtype_t)dtype, NULL);
}

int32_t ampTestCompareRawDtype(int32_t dtype) {
  int32_t a = 1, b = 2;
  int8_t c = 7;
  int64_t dims[1] = {1};
  return (int32_t)amp_compare(AMP_COMPARE_LT, &a, &b, &c, dims, 1, dims, 1,
                              dims, 1, (amp_dtype_t)dtype, NULL);
}

int32_t ampTestCastRawDtypes(int32_t x_dtype, int32_t y_dtype) {
  float x[2] = {1.0f, 2.0f};
  int64_t y[2] = {0, 0};
  return (int32_t)amp_cast(x, y, 2, (amp_dtype_t)x_dtype, (amp_dtype_t)y_dtype,
                           NULL);
}

int32_t ampTestLrScheduleRawKind(int32_t kind) {
  float count = 0.0f, factor = 0.0f;
  const int64_t milestone = 3;
  return (int32_t)amp_lr_schedule(&count, &factor, &count,
                                  (amp_lr_schedule_t)kind, 0, 0.0f, 1, 0.0f, 1,
                                  0.5f, 1.0f, &milestone, 1, NULL);
}

int32_t ampTestElementwiseLossRawKind(int32_t kind) {
  float p[2] = {1.0f, 2.0f}, t[2] = {0.0f, 1.0f}, loss = 0.0f;
  return (int32_t)amp_elementwise_loss((amp_elementwise_loss_t)kind, 1.0f, p, t,
                                       &loss, 2, 2, AMP_DTYPE_F32, NULL);
}

int32_t ampTestAttentionRawDtypes(int32_t dtype, int32_t mask_dtype) {
  float q = 1.0f, mask = 0.0f, out = 0.0f, lse = 0.0f;
  int64_t dims[2] = {1, 1};
  return (int32_t)amp_attention(
      &q, &q, &q, &mask, &out, &lse, dims, 2, 1, 1, 1, dims, (amp_dtype_t)dtype,
      (amp_dtype_t)mask_dtype, 1.0f, 0, NULL, 0.0f, NULL);
}
