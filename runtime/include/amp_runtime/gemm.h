/*===- gemm.h - amp runtime: the GEMM entry point and its epilogues -------===
 *
 * The C ABI of the runtime GEMM. The reference backend (libamp_runtime_ref,
 * CPU) and the CUDA backend (libamp_runtime_cuda, cuBLASLt) export exactly
 * the functions declared here, so lowered code links against either one.
 * docs/runtime-gemm.md describes the semantics in full.
 *
 * Every matrix is row-major. For each batch b in [0, batch_count):
 *
 *   T[b]   = alpha * op(A[b]) * op(B[b]) + beta * C[b]       (M x N, fp32)
 *   D[b]   = epilogue(T[b], bias[b], aux[b])                 (M x N)
 *
 * with op(X) = X or X^T, fp32 accumulation, and one round-to-nearest-even
 * into D's dtype at the end. Element (i, j) of a matrix X with leading
 * dimension ldx in batch b lives at X + b * stride_x + i * ldx + j (units of
 * elements). A batch stride of 0 gives every batch the same matrix
 * (broadcast); this is not allowed for the outputs D and (written) aux.
 *
 * Pointers are host pointers on the reference backend and device pointers on
 * the CUDA backend. The reference backend computes synchronously; the CUDA
 * backend enqueues on `stream` and returns.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_GEMM_H
#define AMP_RUNTIME_GEMM_H

#include "amp_runtime/amp_runtime.h"

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define AMP_GEMM_API __attribute__((visibility("default")))
#else
#define AMP_GEMM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Epilogues. Values are part of the ABI. "bias" is a vector of D's dtype;
 * "aux" is an M x N matrix of D's dtype (ld_aux, stride_aux). With
 * gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (the tanh form):
 *
 *   NONE            D = T
 *   BIAS            D = T + bias[j]                      (bias: N, input)
 *   RELU            D = max(T, 0)
 *   RELU_BIAS       D = max(T + bias[j], 0)
 *   GELU            D = gelu(T)
 *   GELU_BIAS       D = gelu(T + bias[j])
 *   GELU_AUX        aux = T,            D = gelu(T)      (aux: output)
 *   GELU_AUX_BIAS   aux = T + bias[j],  D = gelu(aux)    (aux: output)
 *   DRELU           D = aux > 0 ? T : 0                  (aux: input)
 *   DRELU_BGRAD     DRELU, and bias[j] = sum_i D[i][j]   (bias: N, output)
 *   DGELU           D = T * gelu'(aux)                   (aux: input)
 *   DGELU_BGRAD     DGELU, and bias[j] = sum_i D[i][j]   (bias: N, output)
 *   BGRADA          D = T, bias[i] = sum_k op(A)[i][k]   (bias: M, output)
 *   BGRADB          D = T, bias[j] = sum_k op(B)[k][j]   (bias: N, output)
 *
 * The aux of GELU_AUX* is the pre-activation rounded to D's dtype; DGELU
 * reads it back. DRELU only tests aux > 0, so its aux may be either the
 * pre-activation or the ReLU output of the forward GEMM. The *_BGRAD sums
 * are taken over the fp32 values before D is rounded. BGRADA/BGRADB reduce
 * an input over K and are not scaled by alpha.
 *
 * The linear layer Y = X W^T + b (X: tokens x in, W: out x in) maps to
 *   forward      M=tokens N=out K=in,  A=X, B=W (trans_b), BIAS / *_BIAS
 *   data grad    M=tokens N=in  K=out, A=dY, B=W, DRELU/DGELU(_BGRAD) when
 *                the layer below has an activation
 *   weight grad  M=out N=in K=tokens, A=dY (trans_a), B=X, BGRADA, which
 *                also yields db[o] = sum over tokens of dY[t][o]. */
typedef enum amp_gemm_epilogue {
  AMP_GEMM_EPILOGUE_NONE = 0,
  AMP_GEMM_EPILOGUE_BIAS = 1,
  AMP_GEMM_EPILOGUE_RELU = 2,
  AMP_GEMM_EPILOGUE_RELU_BIAS = 3,
  AMP_GEMM_EPILOGUE_GELU = 4,
  AMP_GEMM_EPILOGUE_GELU_BIAS = 5,
  AMP_GEMM_EPILOGUE_GELU_AUX = 6,
  AMP_GEMM_EPILOGUE_GELU_AUX_BIAS = 7,
  AMP_GEMM_EPILOGUE_DRELU = 8,
  AMP_GEMM_EPILOGUE_DRELU_BGRAD = 9,
  AMP_GEMM_EPILOGUE_DGELU = 10,
  AMP_GEMM_EPILOGUE_DGELU_BGRAD = 11,
  AMP_GEMM_EPILOGUE_BGRADA = 12,
  AMP_GEMM_EPILOGUE_BGRADB = 13,
} amp_gemm_epilogue_t;

#define AMP_GEMM_NUM_EPILOGUES 14

/* One GEMM call. The layout is part of the ABI: pointers, then int64_t
 * fields, then 32-bit fields, with no padding on LP64 targets. Start from
 * amp_gemm_desc_init() so that unused fields are zero.
 *
 * Supported dtypes (a_dtype == b_dtype; C, D, bias and aux use d_dtype):
 *   A/B f16  -> D f16 or f32
 *   A/B bf16 -> D bf16 or f32
 *   A/B f32  -> D f32
 * Any other combination of known dtypes is AMP_STATUS_NOT_SUPPORTED. */
typedef struct amp_gemm_desc {
  const void *a;       /* op(A): M x K */
  const void *b;       /* op(B): K x N */
  const void *c;       /* M x N; read only when beta != 0; may equal d */
  void *d;             /* M x N output */
  void *bias;          /* bias input or bias-gradient output; NULL if unused */
  void *aux;           /* pre-activation (see the epilogues); NULL if unused */
  int64_t m, n, k;     /* >= 1 */
  int64_t batch_count; /* >= 1 */
  /* Leading dimensions in elements: the row pitch of the stored matrix.
   * A is stored M x K (K x M if trans_a), B is K x N (N x K if trans_b). */
  int64_t lda, ldb, ldc, ldd, ld_aux;
  /* Batch strides in elements, >= 0; 0 broadcasts (inputs only). */
  int64_t stride_a, stride_b, stride_c, stride_d, stride_aux, stride_bias;
  float alpha;
  float beta;
  int32_t trans_a; /* 0: op(A) = A; 1: op(A) = A^T */
  int32_t trans_b; /* 0: op(B) = B; 1: op(B) = B^T */
  amp_dtype_t a_dtype;
  amp_dtype_t b_dtype;
  amp_dtype_t d_dtype;
  amp_gemm_epilogue_t epilogue;
} amp_gemm_desc_t;

/* Counters of one backend since load (or the last reset), for tests and the
 * benchmark. The reference backend only counts calls. */
typedef struct amp_gemm_stats {
  uint64_t calls;         /* amp_gemm calls that returned AMP_STATUS_OK */
  uint64_t plan_hits;     /* calls whose cuBLASLt plan was in the cache */
  uint64_t plan_misses;   /* calls that built a plan (ran the heuristic) */
  uint64_t unfused_calls; /* calls that ran GEMM + the runtime's epilogue
                             kernels instead of a fused cuBLASLt epilogue */
} amp_gemm_stats_t;

/* Zeroes `desc`, then sets alpha = 1, batch_count = 1 and f16 dtypes. */
static inline void amp_gemm_desc_init(amp_gemm_desc_t *desc) {
  memset(desc, 0, sizeof(*desc));
  desc->batch_count = 1;
  desc->alpha = 1.0f;
  desc->a_dtype = AMP_DTYPE_F16;
  desc->b_dtype = AMP_DTYPE_F16;
  desc->d_dtype = AMP_DTYPE_F16;
}

/* Runs one (batched) GEMM. `stream` is a cudaStream_t on the CUDA backend
 * (NULL: the legacy default stream) and ignored by the reference backend.
 * Returns AMP_STATUS_INVALID_ARGUMENT for malformed requests (NULL or
 * misaligned pointers, bad dims, leading dimensions or strides, a bias or
 * aux given to an epilogue that does not use it, unknown enum values),
 * AMP_STATUS_NOT_SUPPORTED for well-formed requests the runtime does not
 * implement (dtype combinations), AMP_STATUS_BACKEND_ERROR for CUDA or
 * cuBLAS failures. On failure amp_gemm_last_error() says why; nothing is
 * written when the request is rejected. */
AMP_GEMM_API amp_status_t amp_gemm(const amp_gemm_desc_t *desc, void *stream);

/* amp_gemm on a copy of `*shape` whose six pointers (a, b, c, d, bias, aux)
 * are the arguments instead; `shape`'s own pointer fields are ignored, and
 * it need not be aligned. Compiled steps call this with a constant
 * descriptor per GEMM, so that a call needs no descriptor on the stack.
 * Fails as amp_gemm does, also for a NULL `shape`. */
AMP_GEMM_API amp_status_t amp_gemm_with_pointers(const amp_gemm_desc_t *shape,
                                                 const void *a, const void *b,
                                                 const void *c, void *d,
                                                 void *bias, void *aux,
                                                 void *stream);

/* A description of the last failure of amp_gemm on the calling thread, or
 * "" if the last call succeeded. Valid until the next call on this thread. */
AMP_GEMM_API const char *amp_gemm_last_error(void);

/* "reference" or "cuda". */
AMP_GEMM_API const char *amp_gemm_backend_name(void);

/* Copies the counters into `stats` (ignored if NULL). */
AMP_GEMM_API void amp_gemm_get_stats(amp_gemm_stats_t *stats);
AMP_GEMM_API void amp_gemm_reset_stats(void);

/* Nonzero makes the CUDA backend skip the fused cuBLASLt epilogues and run
 * the unfused GEMM plus its own epilogue kernels, the path it otherwise takes
 * only when cuBLASLt does not support a request; tests use it to check that
 * path. Returns the previous setting. No effect on the reference backend. */
AMP_GEMM_API int amp_gemm_set_force_unfused(int force);

/* Frees the cached plans, handles and workspaces (CUDA backend); the next
 * call rebuilds what it needs. Call it before destroying a stream that GEMMs
 * ran on, or to give memory back. */
AMP_GEMM_API void amp_gemm_release_resources(void);

/* The epilogue's name without the prefix ("GELU_AUX_BIAS"), "?" if unknown. */
static inline const char *amp_gemm_epilogue_name(amp_gemm_epilogue_t e) {
  static const char *const names[AMP_GEMM_NUM_EPILOGUES] = {
      "NONE",      "BIAS",        "RELU",          "RELU_BIAS", "GELU",
      "GELU_BIAS", "GELU_AUX",    "GELU_AUX_BIAS", "DRELU",     "DRELU_BGRAD",
      "DGELU",     "DGELU_BGRAD", "BGRADA",        "BGRADB"};
  return ((int)e >= 0 && (int)e < AMP_GEMM_NUM_EPILOGUES) ? names[e] : "?";
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AMP_RUNTIME_GEMM_H */
