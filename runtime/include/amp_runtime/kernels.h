/*===- kernels.h - amp runtime: the C ABI of every kernel but the GEMM ----===
 *
 * The entry points that lowered code calls for every nn/amp op other than
 * nn.matmul (which is amp_gemm, gemm.h), plus memory management. The
 * reference backend (libamp_runtime_ref, CPU) exports exactly these symbols;
 * docs/runtime-kernels.md describes the conventions and the precision of
 * every kernel.
 *
 * Conventions shared by every function:
 *  - Plain C, raw pointers, int64_t sizes, amp_dtype_t element types. Every
 *    tensor is dense and row-major. Pointers are host pointers on the
 *    reference backend (device pointers on a device backend) and must be
 *    aligned to their element size; a pointer may be NULL only when its
 *    tensor has no elements or the function documents it as optional.
 *  - Argument order: pointers (inputs, then outputs), then shapes, then
 *    dtypes, then the op's attributes, then (optimizers only) the found_inf
 *    predicate, then `stream`.
 *  - A static shape is `const int64_t *dims, int32_t rank` with 0 <= rank <=
 *    AMP_KERNEL_MAX_RANK and every dim >= 0 (dims may be NULL for rank 0).
 *    Kernels whose operands all have one shape and are plain elementwise take
 *    the element count `n` instead.
 *  - `stream` is the trailing argument: a cudaStream_t on a CUDA backend,
 *    ignored by the reference backend, which computes synchronously.
 *  - Every function (but amp_alloc) returns amp_status_t:
 *    AMP_STATUS_INVALID_ARGUMENT for malformed calls (NULL or misaligned
 *    pointers, bad shapes or axes, unknown enum values, out-of-range ids or
 *    labels), AMP_STATUS_NOT_SUPPORTED for well-formed calls with a dtype
 *    combination the kernel does not implement, AMP_STATUS_BACKEND_ERROR
 *    when the backend fails (out of memory for scratch buffers).
 *    amp_kernel_last_error() then says why. A rejected call writes no
 *    output.
 *  - Outputs may alias inputs exactly (the same pointer, for in-place
 *    updates) where a function says so; partial overlap is never allowed.
 *  - Precision: elements are widened exactly to f32, every computation is
 *    f32 (reductions accumulate in f32), and each stored value is rounded
 *    once to its dtype with round-to-nearest-even (overflow -> +-inf, NaN
 *    stays NaN). Exceptions are documented per function.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_KERNELS_H
#define AMP_RUNTIME_KERNELS_H

#include "amp_runtime/amp_runtime.h"

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define AMP_KERNEL_API __attribute__((visibility("default")))
#else
#define AMP_KERNEL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The largest tensor rank the kernels accept. */
#define AMP_KERNEL_MAX_RANK 8

/* A description of the last failure of a kernel entry point on the calling
 * thread, or "" when the last call succeeded. Valid until the next call on
 * this thread. (amp_gemm keeps its own, amp_gemm_last_error().) */
AMP_KERNEL_API const char *amp_kernel_last_error(void);

/*===--- Memory ----------------------------------------------------------===*/

/* `bytes` (>= 0) of uninitialized memory aligned to 64 bytes; a distinct
 * non-NULL pointer also for 0 bytes. NULL (with the last error set) on
 * failure. The reference backend uses the C heap. */
AMP_KERNEL_API void *amp_alloc(int64_t bytes, void *stream);

/* Frees memory from amp_alloc; NULL is ignored. */
AMP_KERNEL_API amp_status_t amp_free(void *ptr, void *stream);

/* `bytes` (>= 0) of host memory for staging copies to and from the device,
 * aligned to 64 bytes; a distinct non-NULL pointer also for 0 bytes. On a
 * device backend it is page-locked (cudaMallocHost), so that amp_memcpy
 * from it runs at the bus's full rate and returns before the copy is done;
 * on the host backends it is the C heap. Not counted by
 * amp_memory_get_stats (device memory). NULL (with the last error set) on
 * failure. */
AMP_KERNEL_API void *amp_host_alloc(int64_t bytes);

/* Frees memory from amp_host_alloc; NULL is ignored. It may wait for the
 * device. */
AMP_KERNEL_API amp_status_t amp_host_free(void *ptr);

/* Copies `bytes` (>= 0) from src to dst. The ranges may be equal but must not
 * partially overlap. A copy into host memory has finished when the call
 * returns; a copy from amp_host_alloc memory into device memory may still
 * read src until amp_synchronize (the caller keeps it unchanged). */
AMP_KERNEL_API amp_status_t amp_memcpy(void *dst, const void *src,
                                       int64_t bytes, void *stream);

/* Sets `bytes` (>= 0) bytes at dst to `value` (0..255). */
AMP_KERNEL_API amp_status_t amp_memset(void *dst, int32_t value, int64_t bytes,
                                       void *stream);

/* Waits for the work queued on `stream`; a no-op on the reference backend.
 * A device backend also reports here the failures its kernels can only
 * detect on the device (an id or label out of range): the first one since
 * the last amp_synchronize, as AMP_STATUS_INVALID_ARGUMENT. */
AMP_KERNEL_API amp_status_t amp_synchronize(void *stream);

/* The backend's memory counters (bytes of amp_alloc). `in_use` counts live
 * allocations at their requested size; `reserved` what the backend holds
 * from the system, cached free blocks included (the reference backend caches
 * nothing, so it equals in_use there); `peak_*` the highest value since the
 * last amp_memory_reset_peak (or the start). `alloc_calls` counts amp_alloc
 * calls, `cache_hits` those served from the cache. */
typedef struct amp_memory_stats {
  int64_t in_use_bytes;
  int64_t peak_in_use_bytes;
  int64_t reserved_bytes;
  int64_t peak_reserved_bytes;
  int64_t alloc_calls;
  int64_t cache_hits;
} amp_memory_stats_t;

/* Writes the counters to *stats (ignored when NULL). */
AMP_KERNEL_API void amp_memory_get_stats(amp_memory_stats_t *stats);

/* Sets the peaks to the current values and the call counts to 0. */
AMP_KERNEL_API void amp_memory_reset_peak(void);

/*===--- Graphs -----------------------------------------------------------===*/

/* Capturing the work queued on a stream into a replayable graph (CUDA
 * graphs): between begin and end, the calls made on `stream` are recorded,
 * not run; amp_graph_launch then runs the recorded work again with the same
 * pointers and arguments. The reference backend computes synchronously and
 * returns AMP_STATUS_NOT_SUPPORTED from all four. */
AMP_KERNEL_API amp_status_t amp_graph_begin_capture(void *stream);

/* Ends the capture begun on `stream` and stores the executable graph in
 * *graph (freed with amp_graph_destroy). */
AMP_KERNEL_API amp_status_t amp_graph_end_capture(void *stream, void **graph);

/* Queues one replay of `graph` on `stream`. */
AMP_KERNEL_API amp_status_t amp_graph_launch(void *graph, void *stream);

/* Frees a graph from amp_graph_end_capture; NULL is ignored. */
AMP_KERNEL_API amp_status_t amp_graph_destroy(void *graph);

/*===--- Elementwise -----------------------------------------------------===*/

/* Unary ops (nn.neg ... nn.atanh). Values are part of the ABI. */
typedef enum amp_unary_op {
  AMP_UNARY_NEG = 0,
  AMP_UNARY_EXP = 1,
  AMP_UNARY_LOG = 2,
  AMP_UNARY_SQRT = 3,
  AMP_UNARY_RSQRT = 4, /* 1 / sqrt(x), two f32 roundings */
  AMP_UNARY_TANH = 5,
  AMP_UNARY_SIGMOID = 6,   /* 1 / (1 + exp(-x)) */
  AMP_UNARY_RELU = 7,      /* x < 0 ? 0 : x: NaN and -0 pass through */
  AMP_UNARY_GELU = 8,      /* tanh form, bitwise the GEMM epilogue's gelu */
  AMP_UNARY_ABS = 9,       /* |x|, exact (NaN stays NaN, -0 -> +0) */
  AMP_UNARY_GELU_ERF = 10, /* 0.5 x (1 + erf(x / sqrt 2)), the exact GELU */
  AMP_UNARY_SIN = 11,      /* sinf(x) */
  AMP_UNARY_COS = 12,      /* cosf(x) */
  AMP_UNARY_ERF = 13,      /* erff(x) */
  /* Step functions, exact: NaN, infinities and zeros stay as they are. */
  AMP_UNARY_FLOOR = 14, /* floorf(x) */
  AMP_UNARY_CEIL = 15,  /* ceilf(x) */
  AMP_UNARY_ROUND = 16, /* rintf(x): to nearest, halves to even */
  AMP_UNARY_SIGN = 17,  /* 1 above 0, -1 below, x at zeros and NaN */
  /* Trigonometric and hyperbolic functions and their inverses, the C
   * library's f32 ones (radians; NaN outside their domains). */
  AMP_UNARY_TAN = 18,   /* tanf(x) */
  AMP_UNARY_ASIN = 19,  /* asinf(x) */
  AMP_UNARY_ACOS = 20,  /* acosf(x) */
  AMP_UNARY_ATAN = 21,  /* atanf(x) */
  AMP_UNARY_SINH = 22,  /* sinhf(x) */
  AMP_UNARY_COSH = 23,  /* coshf(x) */
  AMP_UNARY_ASINH = 24, /* asinhf(x) */
  AMP_UNARY_ACOSH = 25, /* acoshf(x) */
  AMP_UNARY_ATANH = 26, /* atanhf(x) */
} amp_unary_op_t;

/* y[i] = op(x[i]) for n elements of `dtype` (f32, f16, bf16), computed in f32
 * with the C library's f32 functions. y may equal x. */
AMP_KERNEL_API amp_status_t amp_unary(amp_unary_op_t op, const void *x, void *y,
                                      int64_t n, amp_dtype_t dtype,
                                      void *stream);

/* nn.relu_grad: dx[i] = x[i] > 0 ? dy[i] : 0 (a select, as the GEMM's DRELU:
 * a NaN x gives 0). Exact. dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_relu_grad(const void *dy, const void *x,
                                          void *dx, int64_t n,
                                          amp_dtype_t dtype, void *stream);

/* nn.gelu_grad: dx[i] = dy[i] * gelu'(x[i]) in f32 (the tanh form's exact
 * derivative, bitwise the GEMM's DGELU). dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_gelu_grad(const void *dy, const void *x,
                                          void *dx, int64_t n,
                                          amp_dtype_t dtype, void *stream);

/* nn.gelu_erf_grad: dx[i] = dy[i] * (cdf + x pdf) in f32, where
 * cdf = 0.5 (1 + erf(x / sqrt 2)) and pdf = exp(-x^2 / 2) / sqrt(2 pi) (the
 * exact GELU's derivative, as PyTorch computes it). dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_gelu_erf_grad(const void *dy, const void *x,
                                              void *dx, int64_t n,
                                              amp_dtype_t dtype, void *stream);

/* nn.erf_grad: dx[i] = dy[i] * (2 / sqrt(pi)) * exp(-x[i]^2) in f32, as
 * PyTorch computes it. dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_erf_grad(const void *dy, const void *x,
                                         void *dx, int64_t n, amp_dtype_t dtype,
                                         void *stream);

/* Gradients from the forward OUTPUT y (nn.tanh_grad, nn.sigmoid_grad,
 * nn.sqrt_grad, nn.rsqrt_grad), in f32 with this association:
 *   tanh:    dx = dy * (1 - y * y)
 *   sigmoid: dx = (dy * y) * (1 - y)
 *   sqrt:    dx = dy / (2 * y)
 *   rsqrt:   dx = (-0.5 * dy) * ((y * y) * y)
 * dx may equal dy or y. */
AMP_KERNEL_API amp_status_t amp_tanh_grad(const void *dy, const void *y,
                                          void *dx, int64_t n,
                                          amp_dtype_t dtype, void *stream);
AMP_KERNEL_API amp_status_t amp_sigmoid_grad(const void *dy, const void *y,
                                             void *dx, int64_t n,
                                             amp_dtype_t dtype, void *stream);
AMP_KERNEL_API amp_status_t amp_sqrt_grad(const void *dy, const void *y,
                                          void *dx, int64_t n,
                                          amp_dtype_t dtype, void *stream);
AMP_KERNEL_API amp_status_t amp_rsqrt_grad(const void *dy, const void *y,
                                           void *dx, int64_t n,
                                           amp_dtype_t dtype, void *stream);

/* nn.abs_grad: dx = dy * sign(x) with sign(+-0) = 0 and sign(NaN) = NaN.
 * Exact. dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_abs_grad(const void *dy, const void *x,
                                         void *dx, int64_t n, amp_dtype_t dtype,
                                         void *stream);

/* nn.pow: y = powf(x, exponent). y may equal x. */
AMP_KERNEL_API amp_status_t amp_pow(const void *x, void *y, int64_t n,
                                    amp_dtype_t dtype, float exponent,
                                    void *stream);

/* nn.pow_grad: dx = dy * (exponent * powf(x, exponent - 1)) in f32
 * (exponent - 1 rounded to f32); +0 everywhere when exponent == 0 (as
 * PyTorch). dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_pow_grad(const void *dy, const void *x,
                                         void *dx, int64_t n, amp_dtype_t dtype,
                                         float exponent, void *stream);

/* nn.clamp: y = x < min ? min : (x > max ? max : x), compared in f32; NaN
 * stays NaN. A missing bound is passed as -INFINITY (min) or INFINITY (max),
 * which gives the same results. min <= max (neither NaN). The result is
 * RNE(f32 value): a bound not representable in `dtype` is rounded. y may
 * equal x. */
AMP_KERNEL_API amp_status_t amp_clamp(const void *x, void *y, int64_t n,
                                      amp_dtype_t dtype, float min, float max,
                                      void *stream);

/* nn.clamp_grad: dx = (min <= x && x <= max) ? dy : 0 (a NaN x gives 0),
 * bounds as for amp_clamp. Exact. dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_clamp_grad(const void *dy, const void *x,
                                           void *dx, int64_t n,
                                           amp_dtype_t dtype, float min,
                                           float max, void *stream);

/* Binary ops with numpy broadcasting (nn.add ... nn.div, nn.maximum,
 * nn.minimum, nn.powf, nn.mod). */
typedef enum amp_binary_op {
  AMP_BINARY_ADD = 0,
  AMP_BINARY_SUB = 1,
  AMP_BINARY_MUL = 2,
  AMP_BINARY_DIV = 3,
  /* NaN if either operand is NaN; otherwise the larger (smaller) one, lhs on
   * ties (so -0 vs +0 gives lhs, as PyTorch's std::max/std::min). */
  AMP_BINARY_MAX = 4,
  AMP_BINARY_MIN = 5,
  /* powf(lhs, rhs), float dtypes only: C's powf in f32 (within a few ulps,
   * not correctly rounded: pow(x, 0) = 1, pow(1, y) = 1, a negative lhs with
   * a non-integer rhs NaN), rounded to the dtype. */
  AMP_BINARY_POW = 6,
  /* The remainder of lhs / rhs. FMOD has lhs's sign (C's fmod; exact for
   * floats); MOD has rhs's (Python's and numpy's %: the fmod, plus rhs where
   * it is not 0 and the signs differ; a zero result takes rhs's sign). */
  AMP_BINARY_FMOD = 7,
  AMP_BINARY_MOD = 8,
} amp_binary_op_t;

/* out = lhs op rhs. All three shapes are passed; out's must be exactly the
 * numpy broadcast of lhs's and rhs's (trailing dimensions aligned, each pair
 * equal or one of them 1). One dtype for all three. For f32, f16 and bf16
 * the f32 operation is correctly rounded (max and min select), so the result
 * is exact: RNE(f32(lhs op rhs)), POW excepted. i32 and i64 take every op but
 * POW, in two's complement that wraps on overflow (as PyTorch's and numpy's
 * integer tensors); max and min are the signed comparisons. Their DIV
 * truncates toward zero (C's and ONNX's integer Div), INT_MIN / -1 wraps to
 * INT_MIN, and DIV, FMOD and MOD by zero give 0 (numpy's results; nothing
 * traps). out may equal lhs or rhs when that operand has out's shape. */
AMP_KERNEL_API amp_status_t
amp_binary(amp_binary_op_t op, const void *lhs, const void *rhs, void *out,
           const int64_t *lhs_dims, int32_t lhs_rank, const int64_t *rhs_dims,
           int32_t rhs_rank, const int64_t *out_dims, int32_t out_rank,
           amp_dtype_t dtype, void *stream);

/* nn.maximum_grad / nn.minimum_grad (PyTorch's rule), with lhs and rhs
 * broadcast to dy's shape (numpy rules): for maximum
 *   dlhs = lhs == rhs ? dy / 2 : (lhs < rhs ? 0 : dy)
 *   drhs = lhs == rhs ? dy / 2 : (lhs > rhs ? 0 : dy)
 * and < and > swapped for minimum; a NaN operand gives dy to both. dlhs and
 * drhs have dy's shape (the caller reduces them to the operand shapes). dy /
 * 2 is the f32 product dy * 0.5, so the result is exact but for subnormal
 * halves. dlhs or drhs may equal dy or an operand of dy's shape (not each
 * other). */
AMP_KERNEL_API amp_status_t amp_maximum_grad(
    const void *dy, const void *lhs, const void *rhs, void *dlhs, void *drhs,
    const int64_t *dy_dims, int32_t dy_rank, const int64_t *lhs_dims,
    int32_t lhs_rank, const int64_t *rhs_dims, int32_t rhs_rank,
    amp_dtype_t dtype, void *stream);
AMP_KERNEL_API amp_status_t amp_minimum_grad(
    const void *dy, const void *lhs, const void *rhs, void *dlhs, void *drhs,
    const int64_t *dy_dims, int32_t dy_rank, const int64_t *lhs_dims,
    int32_t lhs_rank, const int64_t *rhs_dims, int32_t rhs_rank,
    amp_dtype_t dtype, void *stream);

/* nn.where: out = cond ? lhs : rhs, with numpy broadcasting of all three
 * operands (out's shape must be exactly their broadcast, as for amp_binary).
 * cond is AMP_DTYPE_BOOL (one byte per element; nonzero is true); lhs, rhs
 * and out have `dtype` (any dtype). Exact. out may equal lhs or rhs when that
 * operand has out's shape. */
AMP_KERNEL_API amp_status_t amp_where(
    const void *cond, const void *lhs, const void *rhs, void *out,
    const int64_t *cond_dims, int32_t cond_rank, const int64_t *lhs_dims,
    int32_t lhs_rank, const int64_t *rhs_dims, int32_t rhs_rank,
    const int64_t *out_dims, int32_t out_rank, amp_dtype_t dtype, void *stream);

/* nn.where_grad: dlhs = cond ? dy : 0 (+0), drhs = cond ? 0 : dy, both of
 * dy's shape and float dtype, with cond (bool) broadcast to dy's shape.
 * Exact. dlhs or drhs may equal dy (not each other). */
AMP_KERNEL_API amp_status_t amp_where_grad(
    const void *dy, const void *cond, void *dlhs, void *drhs,
    const int64_t *dy_dims, int32_t dy_rank, const int64_t *cond_dims,
    int32_t cond_rank, amp_dtype_t dtype, void *stream);

/* nn.compare predicates. Values are part of the ABI. */
typedef enum amp_compare_op {
  AMP_COMPARE_EQ = 0,
  AMP_COMPARE_NE = 1,
  AMP_COMPARE_LT = 2,
  AMP_COMPARE_LE = 3,
  AMP_COMPARE_GT = 4,
  AMP_COMPARE_GE = 5,
} amp_compare_op_t;

/* nn.compare: out[i] = (lhs[i] op rhs[i]) ? 1 : 0, AMP_DTYPE_BOOL, with numpy
 * broadcasting of lhs and rhs (out's shape exactly their broadcast, as for
 * amp_binary). lhs and rhs have `dtype`, any dtype: f32, f16 and bf16
 * compare their exact values with IEEE semantics (-0 == +0; a NaN operand
 * makes every predicate false except NE, which is true); i32 and i64 as
 * signed integers; bool as 0 < 1 (any nonzero byte is 1). Exact. out must
 * not overlap lhs or rhs. */
AMP_KERNEL_API amp_status_t
amp_compare(amp_compare_op_t op, const void *lhs, const void *rhs, void *out,
            const int64_t *lhs_dims, int32_t lhs_rank, const int64_t *rhs_dims,
            int32_t rhs_rank, const int64_t *out_dims, int32_t out_rank,
            amp_dtype_t dtype, void *stream);

/* nn.dropout, and its own gradient (the same call on dy with the same seed
 * and attributes). With rate in [0, 1) and training != 0:
 *   y[i] = keep(i) ? x[i] / (1 - rate) : +0      (f32 division, 1 - rate f32)
 * and otherwise (or rate == 0) y = x bitwise. keep(i) is a pure function of
 * the seed (an i64 read from memory, so no host sync) and the flat index i,
 * which any backend reproduces bit for bit (u64 arithmetic mod 2^64):
 *   z = (uint64_t)*seed + (uint64_t)i * 0x9E3779B97F4A7C15
 *   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9      (the splitmix64 finalizer)
 *   z = (z ^ (z >> 27)) * 0x94D049BB133111EB
 *   z = z ^ (z >> 31)
 *   keep(i) = (float)(z >> 40) < 16777216.0f * (1.0f - rate)   (in f32)
 * so an element is kept with probability (1 - rate) rounded to 2^-24
 * (amp_runtime/dropout.h holds keep() for host and device code). y may equal
 * x. */
AMP_KERNEL_API amp_status_t amp_dropout(const void *x, const int64_t *seed,
                                        void *y, int64_t n, amp_dtype_t dtype,
                                        float rate, int32_t training,
                                        void *stream);

/* amp.cast and nn.convert: y[i] = x[i] converted from x_dtype to y_dtype, any
 * pair of dtypes. Exact (one defined result per input):
 *  - between f32, f16 and bf16: RNE (f16 <-> bf16 goes through the exact f32
 *    value); overflow gives +-inf, NaN stays NaN (quiet, sign and leading
 *    payload kept);
 *  - i32, i64, bool -> f32, f16, bf16: the integer value (bool: 0 or 1)
 *    rounded to f32 (RNE), then to y_dtype (RNE) when that is f16 or bf16
 *    (two roundings, as PyTorch);
 *  - f32, f16, bf16 -> i32, i64: the f32 value truncated toward zero; NaN
 *    gives 0, values beyond the integer type's range saturate to its min or
 *    max (+-inf included);
 *  - i64 -> i32: the low 32 bits (two's complement wrap, as NumPy and
 *    PyTorch); i32 -> i64 and bool -> i32, i64: exact (bool: 0 or 1);
 *  - any -> bool: 1 when x != 0 (NaN is nonzero: 1; -0.0 is 0), else 0; a
 *    nonzero bool byte counts as 1.
 * A same-dtype cast is a bitwise copy (bool bytes included); y may then
 * equal x. Otherwise y must not overlap x. */
AMP_KERNEL_API amp_status_t amp_cast(const void *x, void *y, int64_t n,
                                     amp_dtype_t x_dtype, amp_dtype_t y_dtype,
                                     void *stream);

/* y[i] = RNE(value) for n elements: nn.grad_seed is value = 1, and float
 * splat constants. Integer and bool dtypes store the value exactly, which must
 * then be an integer of magnitude at most 2^24 (0 or 1 for bool); any other
 * value is AMP_STATUS_INVALID_ARGUMENT. */
AMP_KERNEL_API amp_status_t amp_fill(void *y, int64_t n, amp_dtype_t dtype,
                                     float value, void *stream);

/* amp.scaled_grad_seed: y[i] = RNE(*scale), the f32 scale read from memory
 * (so no host sync). An f16 seed of a scale above 65504 is +inf. */
AMP_KERNEL_API amp_status_t amp_scaled_grad_seed(const float *scale, void *y,
                                                 int64_t n, amp_dtype_t dtype,
                                                 void *stream);

/*===--- Shape -----------------------------------------------------------===*/

/* nn.reshape: a copy of n elements (the row-major order does not change);
 * nothing to do when y == x, so lowering may also alias the buffers. */
AMP_KERNEL_API amp_status_t amp_reshape(const void *x, void *y, int64_t n,
                                        amp_dtype_t dtype, void *stream);

/* nn.transpose: y.shape[i] = x.shape[perm[i]], y contiguous. Any dtype
 * (f32, f16, bf16, i32, i64, bool). Exact. y must not alias x. */
AMP_KERNEL_API amp_status_t amp_transpose(const void *x, void *y,
                                          const int64_t *x_dims, int32_t rank,
                                          const int64_t *perm,
                                          amp_dtype_t dtype, void *stream);

/* nn.broadcast_to: numpy rules (x_rank <= y_rank, trailing dimensions
 * aligned, each x dim 1 or equal). Any dtype. Exact. */
AMP_KERNEL_API amp_status_t amp_broadcast_to(
    const void *x, void *y, const int64_t *x_dims, int32_t x_rank,
    const int64_t *y_dims, int32_t y_rank, amp_dtype_t dtype, void *stream);

/* nn.concat: out is the concatenation of n_inputs >= 1 tensors along `axis`
 * (negative counts from the end). out_dims is the result's shape; input i has
 * out_dims with dimension `axis` replaced by axis_sizes[i], and the sizes sum
 * to out_dims[axis]. Any dtype. Exact. out must not overlap an input. */
AMP_KERNEL_API amp_status_t amp_concat(int32_t n_inputs,
                                       const void *const *inputs, void *out,
                                       const int64_t *out_dims, int32_t rank,
                                       const int64_t *axis_sizes,
                                       amp_dtype_t dtype, int64_t axis,
                                       void *stream);

/* nn.slice: y[i...] = x[offsets + i * strides ...] for x_dims and y_dims of
 * the same rank; strides (NULL: all 1) are nonzero, negative ones walk
 * backwards. For every dimension with y_dims[d] > 0, offsets[d] and
 * offsets[d] + (y_dims[d] - 1) * strides[d] must be in [0, x_dims[d]). Any
 * dtype. Exact. y must not overlap x. */
AMP_KERNEL_API amp_status_t amp_slice(const void *x, void *y,
                                      const int64_t *x_dims,
                                      const int64_t *y_dims, int32_t rank,
                                      const int64_t *offsets,
                                      const int64_t *strides, amp_dtype_t dtype,
                                      void *stream);

/* nn.slice_grad: dx = 0 (x's shape), then dy scattered to the positions
 * amp_slice reads, with the same arguments (x_dims is dx's shape, y_dims
 * dy's). The positions are distinct, so the result is exact. Any dtype. dx
 * must not overlap dy. */
AMP_KERNEL_API amp_status_t amp_slice_grad(const void *dy, void *dx,
                                           const int64_t *x_dims,
                                           const int64_t *y_dims, int32_t rank,
                                           const int64_t *offsets,
                                           const int64_t *strides,
                                           amp_dtype_t dtype, void *stream);

/* nn.pad: y has dims low[d] + x_dims[d] + high[d] (low, high >= 0), x in the
 * interior and RNE(value) everywhere else. Float dtypes. Exact. y must not
 * overlap x. */
AMP_KERNEL_API amp_status_t amp_pad(const void *x, void *y,
                                    const int64_t *x_dims, int32_t rank,
                                    const int64_t *low, const int64_t *high,
                                    amp_dtype_t dtype, float value,
                                    void *stream);

/*===--- Reductions ------------------------------------------------------===*/

typedef enum amp_reduce_op {
  AMP_REDUCE_SUM = 0,
  AMP_REDUCE_MEAN = 1, /* f32 sum / f32(count); 0/0 = NaN for no elements */
  AMP_REDUCE_MAX = 2,  /* NaN if any element is NaN; exact */
} amp_reduce_op_t;

/* nn.reduce_*: reduces x over `axes` (n_axes entries, unique, negative ones
 * count from the end; n_axes = 0 copies). y holds the kept dimensions in
 * order (keep_dims does not change the layout). y_dtype is x_dtype or f32;
 * the accumulation is f32 in x's memory order. A max over zero elements is
 * INVALID_ARGUMENT. */
AMP_KERNEL_API amp_status_t amp_reduce(amp_reduce_op_t op, const void *x,
                                       void *y, const int64_t *x_dims,
                                       int32_t x_rank, const int64_t *axes,
                                       int32_t n_axes, amp_dtype_t x_dtype,
                                       amp_dtype_t y_dtype, void *stream);

/* nn.reduce_max_grad: dy and y (= amp_reduce's max of x over `axes`) have
 * the reduced shape and y_dtype (x_dtype or f32); dx has x's shape and
 * x_dtype. Per reduced slice, with k the number of elements of x equal to
 * y: dx = x == y ? dy / k : 0 (f32 division, as PyTorch's amax). A slice with
 * k = 0 (a NaN max) is NaN throughout, as PyTorch's mask * (dy / 0). Axes as
 * for amp_reduce. dx must not overlap the inputs. */
AMP_KERNEL_API amp_status_t amp_reduce_max_grad(
    const void *dy, const void *x, const void *y, void *dx,
    const int64_t *x_dims, int32_t x_rank, const int64_t *axes, int32_t n_axes,
    amp_dtype_t x_dtype, amp_dtype_t y_dtype, void *stream);

/* nn.cumsum: y[..., i, ...] = the sum of x[..., j, ...] along `axis` (in
 * [-rank, rank), negative counting from the end) over j <= i, or j < i when
 * exclusive != 0 (the first sum is 0), or j >= i (j > i) when reverse != 0.
 * Any dtype but bool. Floats accumulate in f32 in the order of the scan and
 * round each sum once to dtype (f32: the sequential f32 sums, exact as
 * such); i32 and i64 wrap on overflow. y may equal x. */
AMP_KERNEL_API amp_status_t amp_cumsum(const void *x, void *y,
                                       const int64_t *dims, int32_t rank,
                                       int64_t axis, int32_t exclusive,
                                       int32_t reverse, amp_dtype_t dtype,
                                       void *stream);

/* nn.argmax: y (i64, x's shape without `axis`, or with it as 1: the same
 * layout) holds the position along `axis` (in [-rank, rank)) of the largest
 * element of each line of x: the first one, or the last when select_last
 * != 0. A NaN is larger than every number (PyTorch's rule) and equals
 * another NaN; -0 equals +0. Any dtype but bool; the axis must not be
 * empty. Exact. y must not overlap x. */
AMP_KERNEL_API amp_status_t amp_argmax(const void *x, int64_t *y,
                                       const int64_t *dims, int32_t rank,
                                       int64_t axis, int32_t select_last,
                                       amp_dtype_t dtype, void *stream);

/* nn.topk: y (i64, x's shape with `axis` (in [-rank, rank)) k long) holds
 * the positions along `axis` of the k largest elements of each line of x,
 * largest first, or of the k smallest, smallest first, when smallest != 0.
 * Of equal elements the lower position comes first; a NaN is larger than
 * every number (PyTorch's rule) and equals another NaN; -0 equals +0. Any
 * dtype but bool; 0 <= k <= the axis' size. Exact; O(k * size) per line.
 * y must not overlap x. */
AMP_KERNEL_API amp_status_t amp_topk(const void *x, int64_t *y,
                                     const int64_t *dims, int32_t rank,
                                     int64_t axis, int64_t k, int32_t smallest,
                                     amp_dtype_t dtype, void *stream);

/*===--- Softmax and normalization ---------------------------------------===*/

/* nn.softmax / nn.log_softmax along `axis` (negative counts from the end),
 * in f32: m = max, s = sum exp(x - m), softmax = exp(x - m) / s,
 * log_softmax = (x - m) - log(s). y may equal x. */
AMP_KERNEL_API amp_status_t amp_softmax(const void *x, void *y,
                                        const int64_t *dims, int32_t rank,
                                        amp_dtype_t dtype, int64_t axis,
                                        void *stream);
AMP_KERNEL_API amp_status_t amp_log_softmax(const void *x, void *y,
                                            const int64_t *dims, int32_t rank,
                                            amp_dtype_t dtype, int64_t axis,
                                            void *stream);

/* nn.softmax_grad: dx = y * (dy - sum(dy * y, axis)), the sum in f32. dx may
 * equal dy or y. */
AMP_KERNEL_API amp_status_t amp_softmax_grad(const void *dy, const void *y,
                                             void *dx, const int64_t *dims,
                                             int32_t rank, amp_dtype_t dtype,
                                             int64_t axis, void *stream);

/* nn.layer_norm over dims [axis, rank) (axis may be negative; the normalized
 * part must have >= 1 element). Per row, in f32: mean = sum(x) / L,
 * var = sum((x - mean)^2) / L (two passes, biased), rstd = 1 / sqrt(var +
 * epsilon), y = (x - mean) * rstd * scale + bias. mean and rstd are f32 with
 * shape dims[:axis]. scale and bias have the normalized shape and their own
 * dtype (f32 or x's); either may be NULL (1 and 0). y has x's dtype and may
 * equal x. */
AMP_KERNEL_API amp_status_t amp_layer_norm(
    const void *x, const void *scale, const void *bias, void *y, float *mean,
    float *rstd, const int64_t *dims, int32_t rank, amp_dtype_t x_dtype,
    amp_dtype_t scale_dtype, amp_dtype_t bias_dtype, int64_t axis,
    float epsilon, void *stream);

/* nn.layer_norm_grad, with xhat = (x - mean) * rstd and g = dy * scale, in
 * f32 per row: dx = rstd * (g - mean(g) - xhat * mean(g * xhat)); over all
 * rows: dscale = sum(dy * xhat), dbias = sum(dy) (f32 sums, one rounding).
 * dy and dx have x's dtype, dscale and dbias scale's. scale may be NULL (1;
 * scale_dtype then gives dscale's and dbias's dtype); dscale and dbias may be
 * NULL (not computed). dx may equal dy or x. */
AMP_KERNEL_API amp_status_t amp_layer_norm_grad(
    const void *dy, const void *x, const float *mean, const float *rstd,
    const void *scale, void *dx, void *dscale, void *dbias, const int64_t *dims,
    int32_t rank, amp_dtype_t x_dtype, amp_dtype_t scale_dtype, int64_t axis,
    void *stream);

/* nn.batch_norm with batch statistics on x = [N, C, d2...] (rank >= 2, N *
 * d2... >= 1): per channel c in f32, mean = sum / M, var = sum((x -
 * mean)^2) / M (biased), invstd = 1 / sqrt(var + epsilon), y = (x - mean) *
 * invstd * scale[c] + bias[c]. mean and invstd are f32 [C]; scale and bias
 * [C] of f32 or x's dtype, either may be NULL. y may equal x. */
AMP_KERNEL_API amp_status_t
amp_batch_norm(const void *x, const void *scale, const void *bias, void *y,
               float *mean, float *invstd, const int64_t *dims, int32_t rank,
               amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
               amp_dtype_t bias_dtype, float epsilon, void *stream);

/* nn.batch_norm_grad, with xhat = (x - mean) * invstd, per channel in f32:
 * dbias = sum(dy), dscale = sum(dy * xhat),
 * dx = scale * invstd * (dy - dbias / M - xhat * dscale / M)
 * (the unrounded f32 sums). Optional pointers and aliasing as for
 * amp_layer_norm_grad. */
AMP_KERNEL_API amp_status_t amp_batch_norm_grad(
    const void *dy, const void *x, const float *mean, const float *invstd,
    const void *scale, void *dx, void *dscale, void *dbias, const int64_t *dims,
    int32_t rank, amp_dtype_t x_dtype, amp_dtype_t scale_dtype, void *stream);

/* nn.running_stats_update: the momentum update of a batch norm's running
 * statistics from its batch mean and invstd (amp_batch_norm's), per channel
 * c in f32: var = 1 / (invstd * invstd) - epsilon (the biased batch
 * variance),
 *   new_mean = (1 - momentum) * running_mean + momentum * mean,
 *   new_var  = (1 - momentum) * running_var + momentum * (var * correction),
 * with correction = count / (count - 1) for the unbiased variance, else 1.
 * All six arrays hold `channels` f32 values; new_mean may equal running_mean
 * and new_var running_var. momentum is in [0, 1], epsilon >= 0, correction
 * >= 1 and finite. */
AMP_KERNEL_API amp_status_t amp_running_stats_update(
    const float *running_mean, const float *running_var, const float *mean,
    const float *invstd, float *new_mean, float *new_var, int64_t channels,
    float momentum, float epsilon, float correction, void *stream);

/*===--- Attention -------------------------------------------------------===*/

/* nn.attention: fused scaled-dot-product attention that never stores the
 * [..., Sq, Sk] scores. q is [B..., Sq, D] with dims q_dims (rank >= 2,
 * B... the leading batch dims), k [Bk..., Sk, D], v [Bk..., Sk, Dv], out
 * [B..., Sq, Dv]; q, k, v and out have `dtype` (f32, f16 or bf16). Bk... is
 * B... with its last dim (the heads) divided by kv_group >= 1: with
 * kv_group > 1 (grouped-query attention, rank >= 3) each key/value head
 * serves kv_group consecutive query heads, as PyTorch's SDPA with
 * enable_gqa and Hugging Face's repeat_kv pair them, so the flat batch
 * index b of q reads k and v at b / kv_group. Per batch index b and query
 * row i, in f32 (each element widened exactly):
 *   s[j]   = scale * dot(q[b,i,:], k[b/kv_group,j,:]) + mask[b,i,j]
 *            (s[j] = -inf when causal != 0 and j > i: PyTorch's top-left
 *            aligned is_causal),
 *   m      = max_j s[j],  l = sum_j exp(s[j] - m),
 *   lse[b,i] = m + log(l),  p[j] = exp(s[j] - lse[b,i]),
 *   out[b,i,:] = sum_j p[j] * v[b/kv_group,j,:], rounded once to dtype.
 * A row whose every s[j] is -inf gets out = 0 and lse = -inf. lse is f32
 * [B..., Sq], saved for amp_attention_grad. mask is optional (NULL: none),
 * additive, of mask_dtype (f32 or dtype) and shape mask_dims, of q's rank,
 * each dim equal to the score's ([B..., Sq, Sk]) or 1 (broadcast); -inf
 * masks a key out: a key whose s[j] is -inf contributes nothing, here and
 * in the gradient, even where v or dout holds an inf or a NaN. mask_dims
 * and mask_dtype are ignored when mask is NULL. Sums over j and the dot
 * products accumulate in f32 in ascending order; the backends may block the
 * sums differently (the cpu and CUDA backends do), so they agree to f32
 * rounding, not bitwise. No output may overlap an input (INVALID_ARGUMENT).
 * With dropout_seed (a 0-d i64, NULL: no dropout) the probabilities are
 * dropped as amp_dropout drops the [B..., Sq, Sk] tensor p with that seed and
 * dropout_rate (in [0, 1); 0 without a seed): p[b,i,j] is kept, as
 * p / (1 - dropout_rate), when keep(seed, (b * Sq + i) * Sk + j) of
 * amp_runtime/dropout.h holds and is left out of the sum otherwise; lse
 * stays that of the undropped scores. */
AMP_KERNEL_API amp_status_t amp_attention(
    const void *q, const void *k, const void *v, const void *mask, void *out,
    float *lse, const int64_t *q_dims, int32_t rank, int64_t sk, int64_t dv,
    int64_t kv_group, const int64_t *mask_dims, amp_dtype_t dtype,
    amp_dtype_t mask_dtype, float scale, int32_t causal,
    const int64_t *dropout_seed, float dropout_rate, void *stream);

/* nn.attention_grad: the gradients of amp_attention with respect to q, k and
 * v, from the output gradient dout [B..., Sq, Dv] and the forward's out and
 * lse (shapes, dtypes, mask and causal as there). Per batch index, in f32,
 * with p[i,j] = exp(s[i,j] - lse[i]) recomputed from q and k (0 where lse
 * is -inf) and delta[i] = dot(dout[i,:], out[i,:]):
 *   dp[i,j] = dot(dout[i,:], v[j,:]),  ds[i,j] = p[i,j] * (dp[i,j] - delta[i]),
 *   dq[i,:] = scale * sum_j ds[i,j] * k[j,:],
 *   dk[j,:] = scale * sum_i ds[i,j] * q[i,:],
 *   dv[j,:] = sum_i p[i,j] * dout[i,:],
 * each rounded once to dtype; with kv_group > 1 the sums of dk and dv run
 * over the rows i of all kv_group query heads that share the key/value
 * head, those of the first head first. With dropout (as amp_attention's), a
 * kept entry's dp[i,j] is divided by 1 - dropout_rate and a dropped one's is 0
 * before ds, and dv sums p[i,j] / (1 - dropout_rate) over the kept entries
 * only. The mask gets no gradient. Scratch memory is
 * O(Sk * (D + Dv + 1)) f32 per host thread (the cpu backend's also holds
 * blocks of 64 rows of scores: O(Sk * (D + Dv + 192))), B*Sq f32 on the
 * CUDA device (AMP_STATUS_BACKEND_ERROR if it cannot be had). No output may
 * overlap an input or another output (INVALID_ARGUMENT). */
AMP_KERNEL_API amp_status_t amp_attention_grad(
    const void *dout, const void *q, const void *k, const void *v,
    const void *mask, const void *out, const float *lse, void *dq, void *dk,
    void *dv_out, const int64_t *q_dims, int32_t rank, int64_t sk, int64_t dv,
    int64_t kv_group, const int64_t *mask_dims, amp_dtype_t dtype,
    amp_dtype_t mask_dtype, float scale, int32_t causal,
    const int64_t *dropout_seed, float dropout_rate, void *stream);

/*===--- Convolution -----------------------------------------------------===*/

/* nn.conv2d and its gradients share their arguments: x_dims = [N, C, H, W],
 * w_dims = [O, C / groups, KH, KW], y_dims = [N, O, OH, OW] with
 * OH = (H + top + bottom - dil_h * (KH - 1) - 1) / stride_h + 1 (and OW
 * alike), strides [h, w] >= 1, padding [top, left, bottom, right] >= 0,
 * dilation [h, w] >= 1 (NULL: 1, 0, 1), groups >= 1 dividing C and O. All
 * three shapes are checked against each other. The two operands have
 * in_dtype; the result has out_dtype = in_dtype or f32. Products and sums
 * are f32 (each output element is one f32 sum), then one rounding. The result
 * must not overlap the operands.
 *   amp_conv2d:             y  = conv(x, w)              (x, w -> y)
 *   amp_conv2d_grad_input:  dx = conv^T(dy, w)           (dy, w -> dx)
 *   amp_conv2d_grad_filter: dw = sum_n corr(x, dy)       (dy, x -> dw) */
AMP_KERNEL_API amp_status_t amp_conv2d(
    const void *x, const void *w, void *y, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void *stream);
AMP_KERNEL_API amp_status_t amp_conv2d_grad_input(
    const void *dy, const void *w, void *dx, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void *stream);
AMP_KERNEL_API amp_status_t amp_conv2d_grad_filter(
    const void *dy, const void *x, void *dw, const int64_t *x_dims,
    const int64_t *w_dims, const int64_t *y_dims, amp_dtype_t in_dtype,
    amp_dtype_t out_dtype, const int64_t *strides, const int64_t *padding,
    const int64_t *dilation, int64_t groups, void *stream);

/*===--- Pooling ---------------------------------------------------------===*/

/* The pools share conv2d's NCHW geometry: x_dims = [N, C, H, W], y_dims =
 * [N, C, OH, OW] with OH = (H + top + bottom - dil_h * (kernel[0] - 1) - 1) /
 * stride_h + 1 (and OW alike) >= 1; kernel [h, w] >= 1 (required), strides
 * [h, w] >= 1, padding [top, left, bottom, right] >= 0, dilation [h, w] >= 1
 * (NULL: 1, 0, 1; the average pools have no dilation). One float dtype for
 * every operand. Window positions in the padding are skipped. Results must
 * not overlap the operands. */

/* nn.max_pool2d: the window's maximum (a NaN counts as the largest value;
 * -inf for a window entirely in the padding). Exact. */
AMP_KERNEL_API amp_status_t amp_max_pool2d(
    const void *x, void *y, const int64_t *x_dims, const int64_t *y_dims,
    amp_dtype_t dtype, const int64_t *kernel, const int64_t *strides,
    const int64_t *padding, const int64_t *dilation, void *stream);

/* nn.max_pool2d_grad: each dy goes to the first position of its window (in
 * row-major window order) that holds the maximum amp_max_pool2d selects;
 * contributions of overlapping windows are summed in f32 in output order,
 * then rounded once. */
AMP_KERNEL_API amp_status_t amp_max_pool2d_grad(
    const void *dy, const void *x, void *dx, const int64_t *x_dims,
    const int64_t *y_dims, amp_dtype_t dtype, const int64_t *kernel,
    const int64_t *strides, const int64_t *padding, const int64_t *dilation,
    void *stream);

/* nn.avg_pool2d: the f32 sum of the window's in-bounds elements (row-major)
 * divided by kernel[0] * kernel[1] when count_include_pad != 0, else by the
 * number of in-bounds elements (0 / 0 = NaN for a window in the padding). */
AMP_KERNEL_API amp_status_t amp_avg_pool2d(
    const void *x, void *y, const int64_t *x_dims, const int64_t *y_dims,
    amp_dtype_t dtype, const int64_t *kernel, const int64_t *strides,
    const int64_t *padding, int32_t count_include_pad, void *stream);

/* nn.avg_pool2d_grad: dx = 0, then dy / divisor (f32, the divisor of
 * amp_avg_pool2d) is added in f32 to every in-bounds position of each
 * window, in output order; one rounding per dx element. */
AMP_KERNEL_API amp_status_t amp_avg_pool2d_grad(
    const void *dy, void *dx, const int64_t *x_dims, const int64_t *y_dims,
    amp_dtype_t dtype, const int64_t *kernel, const int64_t *strides,
    const int64_t *padding, int32_t count_include_pad, void *stream);

/* nn.global_avg_pool: y [N, C, 1, 1] = the mean of x [N, C, H, W] over H
 * and W, exactly amp_reduce's mean (f32 sum in memory order / f32(H * W);
 * 0 / 0 = NaN when H * W = 0). */
AMP_KERNEL_API amp_status_t amp_global_avg_pool(const void *x, void *y,
                                                const int64_t *x_dims,
                                                amp_dtype_t dtype,
                                                void *stream);

/*===--- Embedding and loss ----------------------------------------------===*/

/* The padding_idx of an embedding gradient, or the ignore_index of a
 * cross-entropy, that leaves out no index. */
#define AMP_IGNORE_NONE INT64_MIN

/* nn.embedding: out[i, :] = table[ids[i], :] for n_ids ids (i32 or i64) into
 * a [num_embeddings, dim] table of dtype f32, f16, bf16, i32 or i64. An id
 * outside [0, num_embeddings) is INVALID_ARGUMENT (checked before anything is
 * written). Exact. out must not overlap table. */
AMP_KERNEL_API amp_status_t amp_embedding(const void *table, const void *ids,
                                          void *out, int64_t num_embeddings,
                                          int64_t dim, int64_t n_ids,
                                          amp_dtype_t dtype,
                                          amp_dtype_t ids_dtype, void *stream);

/* nn.embedding_grad: dtable = 0, then dtable[ids[i], :] += dy[i, :] in
 * ascending i, accumulated in f32 and rounded once into dtable_dtype (dy's
 * dtype or f32). The ids equal to padding_idx (AMP_IGNORE_NONE: none; else a
 * row in [0, num_embeddings)) add nothing, so that row stays zero. With
 * scale_grad_by_freq nonzero each addition is dy[i, :] / count in f32,
 * count the number of ids equal to ids[i]. Ids are checked as for
 * amp_embedding. dtable must not overlap dy. */
AMP_KERNEL_API amp_status_t amp_embedding_grad(
    const void *dy, const void *ids, void *dtable, int64_t num_embeddings,
    int64_t dim, int64_t n_ids, int64_t padding_idx, int32_t scale_grad_by_freq,
    amp_dtype_t dy_dtype, amp_dtype_t ids_dtype, amp_dtype_t dtable_dtype,
    void *stream);

/* nn.cross_entropy on logits [rows, classes] (the leading dims flattened) and
 * labels [rows] (i32 or i64): *loss = sum_r loss_r / kept in f32 over the
 * kept rows, those whose label is not ignore_index (every row with
 * AMP_IGNORE_NONE), with m_r and s_r the row's max and sum exp(x - m_r)
 * (0/0 = NaN when no row is kept, as PyTorch's mean). loss_r = log(s_r) -
 * (x[r, l_r] - m_r); with label_smoothing e in (0, 1] (PyTorch's), loss_r =
 * f32(1 - e) * that + f32(e / classes) * (classes * log(s_r) + sum_c (m_r -
 * x[r, c])). A label that is neither ignore_index nor in [0, classes), or
 * e outside [0, 1], is INVALID_ARGUMENT. */
AMP_KERNEL_API amp_status_t amp_cross_entropy(
    const void *logits, const void *labels, float *loss, int64_t rows,
    int64_t classes, int64_t ignore_index, float label_smoothing,
    amp_dtype_t logits_dtype, amp_dtype_t labels_dtype, void *stream);

/* nn.cross_entropy_grad: dlogits[r, c] = (g / kept) * (softmax(x)[r, c] -
 * t_c) in f32 for a kept row, 0 for an ignored one, g the 0-d grad_loss
 * (its own dtype), t_c the smoothed target f32((c == l_r) * (1 - e) + e /
 * classes) (1 at the label and 0 elsewhere when e = 0). dlogits has the
 * logits' dtype and may equal logits. Labels and e are checked as above. */
AMP_KERNEL_API amp_status_t amp_cross_entropy_grad(
    const void *grad_loss, const void *logits, const void *labels,
    void *dlogits, int64_t rows, int64_t classes, int64_t ignore_index,
    float label_smoothing, amp_dtype_t grad_loss_dtype,
    amp_dtype_t logits_dtype, amp_dtype_t labels_dtype, void *stream);

/* The elementwise losses (nn.mse_loss, nn.l1_loss, nn.huber_loss,
 * nn.bce_with_logits_loss): the mean over n elements of loss(p, t), p the
 * prediction (for BCE the logit) and t the target. Values are part of the
 * ABI. `param` is Huber's delta (finite, > 0) and is ignored by the
 * others. */
typedef enum amp_elementwise_loss {
  AMP_LOSS_MSE = 0,   /* (p - t)^2 */
  AMP_LOSS_L1 = 1,    /* |p - t| */
  AMP_LOSS_HUBER = 2, /* |d| < delta ? 0.5 d^2 : delta (|d| - 0.5 delta) */
  AMP_LOSS_BCE_WITH_LOGITS = 3, /* (1 - t) p - log_sigmoid(p), where
                                 * log_sigmoid(p) = min(p, 0) -
                                 * log1p(exp(-|p|)) */
} amp_elementwise_loss_t;

/* *loss = sum(loss(pred, target)) / divisor in f32 over n elements (a
 * sequential f32 sum on the reference backend, per-block partials on CUDA):
 * divisor is n for the mean (0 / 0 = NaN for n = 0) and 1 for the sum
 * (PyTorch's reduction="sum"); it is >= 0. pred and target share dtype. */
AMP_KERNEL_API amp_status_t
amp_elementwise_loss(amp_elementwise_loss_t op, float param, const void *pred,
                     const void *target, float *loss, int64_t n,
                     int64_t divisor, amp_dtype_t dtype, void *stream);

/* The gradient with respect to pred, in f32 with g the 0-d grad_loss (its
 * own dtype) and m the divisor (as above), in PyTorch's op order:
 *   MSE:   (c (p - t)) g, c = f32(2 / f64(m));
 *   L1:    (g / m) sign(p - t) (0 where p = t);
 *   Huber: (c d) g for |d| < delta, else ((c g) delta) sign(d),
 *          c = f32(1 / f64(m));
 *   BCE:   ((sigmoid(p) - t) g) / m.
 * dpred has pred's dtype and may equal pred or target. */
AMP_KERNEL_API amp_status_t amp_elementwise_loss_grad(
    amp_elementwise_loss_t op, float param, const void *grad_loss,
    const void *pred, const void *target, void *dpred, int64_t n,
    int64_t divisor, amp_dtype_t grad_loss_dtype, amp_dtype_t dtype,
    void *stream);

/*===--- Optimizers ------------------------------------------------------===*/
/* param, grad and the state share `dtype`; every new_* output may equal its
 * input (in place). Scalar coefficients (1 - dampening, 1 - lr * wd, the bias
 * corrections) are formed in f64 from the f32 attributes and rounded to f32
 * once, as PyTorch forms them from Python floats; the elementwise math is
 * f32 in PyTorch's op order, and each stored value is rounded once (for
 * f16/bf16 state the unrounded f32 value feeds the param update).
 *
 * found_inf (optional, may be NULL) is the predicate of amp.skip_step_if,
 * read from memory: when *found_inf != 0 every output is made bitwise equal
 * to its input (copied, or untouched when in place), new_step included.
 *
 * lr_factor (optional, may be NULL) is the f32 factor of a learning-rate
 * schedule (amp_lr_schedule), read from memory: the update then uses
 * lr' = (float)((double)lr * (double)*lr_factor) wherever lr appears below
 * (as PyTorch's schedulers scale a param group's base lr in f64). NULL is
 * lr itself. */

/* nn.lr_schedule: the learning-rate schedules of torch.optim.lr_scheduler
 * and transformers' get_*_schedule_with_warmup, as a factor of the base lr.
 * Values are part of the ABI. */
typedef enum amp_lr_schedule {
  AMP_LR_SCHEDULE_CONSTANT = 0,
  AMP_LR_SCHEDULE_LINEAR = 1,
  AMP_LR_SCHEDULE_COSINE = 2,
  AMP_LR_SCHEDULE_STEP = 3,
  AMP_LR_SCHEDULE_EXPONENTIAL = 4,
  AMP_LR_SCHEDULE_POLYNOMIAL = 5,
  AMP_LR_SCHEDULE_MULTISTEP = 6,
} amp_lr_schedule_t;

/* The most milestones a MULTISTEP schedule takes. */
#define AMP_LR_SCHEDULE_MAX_MILESTONES 16

/* nn.lr_schedule: *factor = f(s) for the step s = *count (the number of
 * earlier steps, a non-negative integer held in f32; a negative or NaN count
 * is taken as 0), *new_count = s + 1 (f32). With W = warmup_steps, a =
 * warmup_start_factor, T = total_steps, b = final_factor, all in f64 and
 * rounded to f32 once:
 *   s < W:        a + (1 - a) * s / W                  (linear warmup)
 *   otherwise, with d = s - W and D = T - W:
 *   CONSTANT:     1
 *   LINEAR:       b + (1 - b) * max(D - d, 0) / D
 *   COSINE:       b + (1 - b) * (1 + cos(pi * min(d / D, 1))) / 2
 *   STEP:         gamma ^ floor(d / step_size)
 *   EXPONENTIAL:  gamma ^ d
 *   POLYNOMIAL:   b + (1 - b) * (max(D - d, 0) / D) ^ power
 *   MULTISTEP:    gamma ^ (the number of milestones m[i] <= d)
 * milestones is a host array of num_milestones values, read during the
 * call. Arguments a kind does not use are ignored (milestones may be NULL).
 * INVALID_ARGUMENT for a NULL pointer, an unknown kind, warmup_steps < 0, a
 * outside [0, 1]; for LINEAR, COSINE and POLYNOMIAL T <= W or b outside [0,
 * 1]; for POLYNOMIAL power not positive and finite; for STEP step_size < 1;
 * for STEP, EXPONENTIAL and MULTISTEP gamma not positive and finite; for
 * MULTISTEP num_milestones outside [1, AMP_LR_SCHEDULE_MAX_MILESTONES] or
 * milestones that are negative or not increasing. new_count may equal count
 * (it is read first); factor must not overlap either. */
AMP_KERNEL_API amp_status_t amp_lr_schedule(
    const float *count, float *factor, float *new_count, amp_lr_schedule_t kind,
    int64_t warmup_steps, float warmup_start_factor, int64_t total_steps,
    float final_factor, int64_t step_size, float gamma, float power,
    const int64_t *milestones, int32_t num_milestones, void *stream);

/* nn.sgd_update (torch.optim.SGD, with the buffer starting at zero):
 * g = grad + wd * param (when wd != 0); with momentum > 0:
 * buf' = momentum * buf + (1 - dampening) * g, d = nesterov ? g + momentum *
 * buf' : buf'; without: d = g. param' = param - lr * d. momentum_buf and
 * new_momentum_buf are given exactly when momentum > 0. */
AMP_KERNEL_API amp_status_t
amp_sgd_update(const void *param, const void *grad, const void *momentum_buf,
               void *new_param, void *new_momentum_buf, int64_t n,
               amp_dtype_t dtype, float lr, const float *lr_factor,
               float momentum, float dampening, float weight_decay,
               int32_t nesterov, const int8_t *found_inf, void *stream);

/* nn.adam_update: t = *step + 1 (f32); with decoupled_weight_decay = 1
 * (torch.optim.AdamW) param1 = param * (1 - lr * wd) and g = grad, with
 * decoupled_weight_decay = 0 (torch.optim.Adam's L2 penalty) param1 = param
 * and g = grad + wd * param (g = grad when wd = 0); then
 * m' = lerp(m, g, 1 - beta1), v' = v * beta2 + (1 - beta2) * g * g,
 * param' = param1 - (lr / (1 - beta1^t)) * m' /
 *          (sqrt(w) / sqrt(1 - beta2^t) + eps),   *new_step = t,
 * where w = v', or with amsgrad = 1 (PyTorch's amsgrad=True)
 * w = max_exp_avg_sq' = max(max_exp_avg_sq, v') (a NaN in either gives NaN,
 * as torch.maximum). max_exp_avg_sq and new_max_exp_avg_sq are given
 * exactly when amsgrad = 1 (NULL otherwise). new_step may equal step (it is
 * read first). INVALID_ARGUMENT for lr, eps or weight_decay negative or not
 * finite, beta1 or beta2 outside [0, 1), decoupled_weight_decay or amsgrad
 * not 0 or 1. */
AMP_KERNEL_API amp_status_t amp_adam_update(
    const void *param, const void *grad, const void *exp_avg,
    const void *exp_avg_sq, const float *step, const void *max_exp_avg_sq,
    void *new_param, void *new_exp_avg, void *new_exp_avg_sq, float *new_step,
    void *new_max_exp_avg_sq, int64_t n, amp_dtype_t dtype, float lr,
    const float *lr_factor, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, int32_t amsgrad,
    const int8_t *found_inf, void *stream);

/* amp_sgd_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_sgd_update calls for i = 0 .. n_buffers - 1 on params[i], grads[i],
 * momentum_bufs[i], new_params[i], new_momentum_bufs[i], sizes[i],
 * dtypes[i] (each buffer has its own size and dtype). The momentum arrays
 * are given exactly when momentum > 0 (NULL otherwise). Each new_* may
 * equal its own input; the buffers of different i must not overlap. A
 * device backend updates every buffer in one or a few kernel launches. */
AMP_KERNEL_API amp_status_t amp_sgd_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *momentum_bufs, void *const *new_params,
    void *const *new_momentum_bufs, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, const float *lr_factor, float momentum,
    float dampening, float weight_decay, int32_t nesterov,
    const int8_t *found_inf, void *stream);

/* amp_adam_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_adam_update calls for i = 0 .. n_buffers - 1, each with its own step
 * counter steps[i] -> new_steps[i] (which may be equal), size and dtype.
 * The max_exp_avg_sq arrays are given exactly when amsgrad = 1 (NULL
 * otherwise). Each new_* may equal its own input; the buffers of different
 * i, step counters included, must not overlap. A device backend updates
 * every buffer in one or a few kernel launches. */
AMP_KERNEL_API amp_status_t amp_adam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, const void *const *max_exp_avg_sqs,
    void *const *new_params, void *const *new_exp_avgs,
    void *const *new_exp_avg_sqs, float *const *new_steps,
    void *const *new_max_exp_avg_sqs, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, const float *lr_factor, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    int32_t amsgrad, const int8_t *found_inf, void *stream);

/* nn.radam_update (torch.optim.RAdam): t = *step + 1 (f32); with
 * decoupled_weight_decay = 1 param1 = param * (1 - lr * wd) and g = grad,
 * with 0 (PyTorch's default) param1 = param and g = grad + wd * param
 * (g = grad when wd = 0); then m' = lerp(m, g, 1 - beta1),
 * v' = v * beta2 + (1 - beta2) * g * g, x = (m' / (1 - beta1^t)) * lr and,
 * with rho_inf = 2 / (1 - beta2) - 1 and rho_t = rho_inf - 2 t beta2^t /
 * (1 - beta2^t), when rho_t > 5
 * x = (x * ((1 / (sqrt(v') + eps)) * sqrt(1 - beta2^t))) * r,
 * r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2)
 * rho_t)); param' = param1 - x, *new_step = t. new_step may equal step (it
 * is read first). INVALID_ARGUMENT for lr, eps or weight_decay negative or
 * not finite, beta1 or beta2 outside [0, 1), decoupled_weight_decay not 0
 * or 1. */
AMP_KERNEL_API amp_status_t amp_radam_update(
    const void *param, const void *grad, const void *exp_avg,
    const void *exp_avg_sq, const float *step, void *new_param,
    void *new_exp_avg, void *new_exp_avg_sq, float *new_step, int64_t n,
    amp_dtype_t dtype, float lr, const float *lr_factor, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    const int8_t *found_inf, void *stream);

/* amp_radam_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_radam_update calls for i = 0 .. n_buffers - 1, each with its own step
 * counter steps[i] -> new_steps[i] (which may be equal), size and dtype.
 * Each new_* may equal its own input; the buffers of different i, step
 * counters included, must not overlap. A device backend updates every
 * buffer in one or a few kernel launches. */
AMP_KERNEL_API amp_status_t amp_radam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, void *const *new_params,
    void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, const int8_t *found_inf,
    void *stream);

/* nn.rmsprop_update (torch.optim.RMSprop, with the buffers starting at
 * zero): g = grad + wd * param (when wd != 0);
 * v' = square_avg * alpha + (1 - alpha) * g * g; centered:
 * a' = lerp(grad_avg, g, 1 - alpha), d = sqrt(v' - a' * a') + eps, else
 * d = sqrt(v') + eps; with momentum > 0: buf' = momentum * buf + g / d,
 * param' = param - lr * buf'; without: param' = param - lr * g / d.
 * momentum_buf and new_momentum_buf are given exactly when momentum > 0,
 * grad_avg and new_grad_avg exactly when centered = 1. INVALID_ARGUMENT
 * for lr, eps, weight_decay or momentum negative or not finite, alpha
 * outside [0, 1], centered not 0 or 1. */
AMP_KERNEL_API amp_status_t amp_rmsprop_update(
    const void *param, const void *grad, const void *square_avg,
    const void *momentum_buf, const void *grad_avg, void *new_param,
    void *new_square_avg, void *new_momentum_buf, void *new_grad_avg, int64_t n,
    amp_dtype_t dtype, float lr, const float *lr_factor, float alpha, float eps,
    float weight_decay, float momentum, int32_t centered,
    const int8_t *found_inf, void *stream);

/* amp_rmsprop_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_rmsprop_update calls for i = 0 .. n_buffers - 1, each with its own
 * size and dtype. The momentum arrays are given exactly when momentum > 0,
 * the grad_avg arrays exactly when centered = 1 (NULL otherwise). Each
 * new_* may equal its own input; the buffers of different i must not
 * overlap. A device backend updates every buffer in one or a few kernel
 * launches. */
AMP_KERNEL_API amp_status_t amp_rmsprop_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *square_avgs, const void *const *momentum_bufs,
    const void *const *grad_avgs, void *const *new_params,
    void *const *new_square_avgs, void *const *new_momentum_bufs,
    void *const *new_grad_avgs, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float alpha, float eps,
    float weight_decay, float momentum, int32_t centered,
    const int8_t *found_inf, void *stream);

/* nn.adagrad_update (torch.optim.Adagrad): g = grad + wd * param (when
 * wd != 0); sum' = state_sum + g * g; param' = param - clr * g /
 * (sqrt(sum') + eps), where clr = lr when lr_decay = 0, else
 * clr = lr / (1 + s * lr_decay) in f64 rounded to f32 once, with s = *step
 * the count of earlier steps (f32) and *new_step = s + 1. step and
 * new_step are given exactly when lr_decay > 0 (NULL otherwise); new_step
 * may equal step (it is read first). INVALID_ARGUMENT for lr, lr_decay,
 * eps or weight_decay negative or not finite. */
AMP_KERNEL_API amp_status_t
amp_adagrad_update(const void *param, const void *grad, const void *state_sum,
                   const float *step, void *new_param, void *new_state_sum,
                   float *new_step, int64_t n, amp_dtype_t dtype, float lr,
                   const float *lr_factor, float lr_decay, float eps,
                   float weight_decay, const int8_t *found_inf, void *stream);

/* amp_adagrad_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_adagrad_update calls for i = 0 .. n_buffers - 1, each with its own
 * size and dtype, and with lr_decay > 0 its own step counter steps[i] ->
 * new_steps[i] (the step arrays are given exactly then, NULL otherwise).
 * Each new_* may equal its own input; the buffers of different i, step
 * counters included, must not overlap. A device backend updates every
 * buffer in one or a few kernel launches. */
AMP_KERNEL_API amp_status_t amp_adagrad_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *state_sums, const float *const *steps,
    void *const *new_params, void *const *new_state_sums,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float lr_decay, float eps,
    float weight_decay, const int8_t *found_inf, void *stream);

/* nn.adafactor_update (torch.optim.Adafactor, PyTorch's defaults lr 1e-2,
 * beta2_decay -0.8, eps (None, 1e-3), d 1): with s = *step + 1 (f32, written
 * to *new_step; new_step may equal step), clr = lr (scheduled: lr *
 * *lr_factor in f64, rounded to f32), beta = f32(s^beta2_decay) (f64 pow),
 * rho = min(clr, 1 / sqrt(s)) and alpha = max(eps2, ||param|| / sqrt(n)) *
 * rho (f64; the norm of the param before decay, f32):
 *   param *= f32(1 - clr * weight_decay)          (when weight_decay != 0)
 *   factored (row_var given; the param is [B, rows, cols], n = B*rows*cols):
 *     row_var' = lerp(row_var, sum_c g^2 / cols, beta)   [B, rows, 1]
 *     col_var' = lerp(col_var, sum_r g^2 / rows, beta)   [B, 1, cols]
 *     v = row_var'[r] * col_var'[c] / max(mean_r row_var', eps1)
 *   unfactored (variance given; rows = cols = 0):
 *     variance' = lerp(variance, g^2, beta); v = variance'
 *   u = g / sqrt(max(v, eps1^2)); denom = max(1, ||u|| / (sqrt(n) * d))
 *   param' = param + f32(-alpha / denom) * u
 * The sums of squares are f32 (sqrt then squared, as PyTorch's
 * vector_norm(...).square_()); lerp is PyTorch's (a + w * (b - a) for
 * |w| < 0.5, else b - (b - a) * (1 - w)). Exactly one of {row_var, col_var}
 * and variance is given, with its new_ value (each may equal its input).
 * INVALID_ARGUMENT for n < 1 (PyTorch divides by sqrt(numel)), rows or cols
 * not >= 1 with n a multiple of rows * cols when factored, or not 0 when
 * not, lr, eps1, eps2 or weight_decay negative or not finite, beta2_decay
 * not finite and <= 0, d not finite and >= 1. */
AMP_KERNEL_API amp_status_t amp_adafactor_update(
    const void *param, const void *grad, const void *row_var,
    const void *col_var, const void *variance, const float *step,
    void *new_param, void *new_row_var, void *new_col_var, void *new_variance,
    float *new_step, int64_t n, amp_dtype_t dtype, int64_t rows, int64_t cols,
    float lr, const float *lr_factor, float beta2_decay, float eps1, float eps2,
    float d, float weight_decay, const int8_t *found_inf, void *stream);

/* amp_adafactor_update over n_buffers (>= 0) buffers in one call, with one
 * found_inf and the same hyperparameters for every buffer: exactly the
 * amp_adafactor_update calls for i = 0 .. n_buffers - 1, each with its own
 * size, dtype and step counter. Either every buffer is factored (the
 * row_var and col_var arrays and rows and cols given, the variance arrays
 * NULL) or none is (the variance arrays given, the others NULL). Each new_*
 * may equal its own input; the buffers of different i must not overlap. */
AMP_KERNEL_API amp_status_t amp_adafactor_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *row_vars, const void *const *col_vars,
    const void *const *variances, const float *const *steps,
    void *const *new_params, void *const *new_row_vars,
    void *const *new_col_vars, void *const *new_variances,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    const int64_t *rows, const int64_t *cols, float lr, const float *lr_factor,
    float beta2_decay, float eps1, float eps2, float d, float weight_decay,
    const int8_t *found_inf, void *stream);

/* nn.clip_grad_norm (torch.nn.utils.clip_grad_norm_): with p = norm_type
 * (> 0, or +inf), norm_i the f32 p-norm of grads[i] (sqrt of the sum of
 * squares for p = 2, the sum of magnitudes for p = 1, the largest magnitude
 * for p = inf with NaN winning, else powf(sum of powf(|x|, p), 1 / p)) and
 * total the p-norm of the norm_i in the same way (f32),
 * coef = max_norm / (total + 1e-6) clamped to <= 1 (NaN stays NaN),
 * clipped[i] = grads[i] * coef. n_buffers >= 1 buffers with their own sizes
 * and dtypes; clipped[i] may equal grads[i]. *total_norm = total. */
AMP_KERNEL_API amp_status_t amp_clip_grad_norm(
    int32_t n_buffers, const void *const *grads, void *const *clipped,
    const int64_t *sizes, const amp_dtype_t *dtypes, float max_norm,
    float norm_type, float *total_norm, void *stream);

/* nn.clip_grad_value (torch.nn.utils.clip_grad_value_): clipped[i] =
 * grads[i] clamped to [-clip_value, clip_value] (clip_value > 0, +inf
 * allowed; NaN stays NaN), bitwise in each buffer's dtype. n_buffers >= 1
 * buffers with their own sizes and dtypes; clipped[i] may equal grads[i]. */
AMP_KERNEL_API amp_status_t amp_clip_grad_value(int32_t n_buffers,
                                                const void *const *grads,
                                                void *const *clipped,
                                                const int64_t *sizes,
                                                const amp_dtype_t *dtypes,
                                                float clip_value, void *stream);

/* nn.ema_update (torch._foreach_lerp_ of get_ema_multi_avg_fn): with w =
 * *weight (read from memory: device memory on CUDA), new_averages[i] =
 * averages[i] + w * (values[i] - averages[i]), a subtraction, a product and
 * a sum each rounded to f32, then rounded once to dtypes[i]. averages[i] and
 * values[i] share sizes[i] and dtypes[i]; n_buffers >= 1; new_averages[i]
 * may equal averages[i]. */
AMP_KERNEL_API amp_status_t amp_ema_update(
    int32_t n_buffers, const void *const *averages, const void *const *values,
    void *const *new_averages, const int64_t *sizes, const amp_dtype_t *dtypes,
    const float *weight, void *stream);

/*===--- Loss scaling ----------------------------------------------------===*/

/* amp.unscale_and_check over n_buffers gradient buffers in one call:
 * unscaled[i] = grads[i] * inv in f32 with inv = f32(1 / f64(*scale)) (the
 * scale read from memory), and *found_inf = 1 when any element of any
 * *scaled* gradient is NaN or +-inf. *found_inf is only ever set, never
 * cleared (as amp_unscale_and_check_f32 and PyTorch's
 * _amp_foreach_non_finite_check_and_unscale_), so calls per dtype group
 * accumulate into one flag: the caller zeroes it once per step.
 * unscaled[i] may equal grads[i]. See docs/loss-scaling.md. */
AMP_KERNEL_API amp_status_t amp_unscale_and_check(
    int32_t n_buffers, const void *const *grads, void *const *unscaled,
    const int64_t *sizes, const amp_dtype_t *dtypes, const float *scale,
    int8_t *found_inf, void *stream);

/* amp.update_scale: one step of amp_loss_scale_update() (loss_scale.h) with
 * the state read from and written to memory, so that the update stays on the
 * device. hysteresis_tracker and new_hysteresis_tracker are both NULL (no
 * hysteresis: every inf backs off) or both given. Outputs may equal inputs.
 * The config is checked with amp_loss_scale_validate_config(). */
AMP_KERNEL_API amp_status_t amp_update_scale(
    const float *scale, const int32_t *growth_tracker,
    const int32_t *hysteresis_tracker, const int8_t *found_inf,
    float *new_scale, int32_t *new_growth_tracker,
    int32_t *new_hysteresis_tracker, double growth_factor,
    double backoff_factor, int32_t growth_interval, float min_scale,
    float max_scale, int32_t hysteresis, void *stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AMP_RUNTIME_KERNELS_H */
