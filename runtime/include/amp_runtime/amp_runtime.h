/*===- amp_runtime.h - amp runtime: common C ABI types ---------------------===
 *
 * Types shared by every runtime entry point. Both backends (reference CPU and
 * CUDA) export the same symbols; lowered code calls them through this C ABI.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_AMP_RUNTIME_H
#define AMP_RUNTIME_AMP_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types of runtime tensors. Values are part of the ABI. */
typedef enum amp_dtype {
  AMP_DTYPE_F32 = 0,
  AMP_DTYPE_F16 = 1,
  AMP_DTYPE_BF16 = 2,
  AMP_DTYPE_I32 = 3,
  AMP_DTYPE_I64 = 4,
  AMP_DTYPE_BOOL = 5, /* i1 tensors: one byte per element, 0 or 1 */
} amp_dtype_t;

/* Status codes returned by runtime entry points. Values are part of the ABI. */
typedef enum amp_status {
  AMP_STATUS_OK = 0,
  AMP_STATUS_INVALID_ARGUMENT = 1, /* bad shape, stride, dtype or pointer */
  AMP_STATUS_NOT_SUPPORTED = 2,    /* valid request this backend can't do */
  AMP_STATUS_BACKEND_ERROR = 3,    /* CUDA / cuBLAS failure */
} amp_status_t;

/* The symbol of a compiled step's `const char *` global that names the
 * source location of the op whose runtime call failed (NUL-terminated), read
 * by the runner after a failed call. */
#define AMP_ERROR_SITE_SYMBOL "__amp_error_site"

/* Size in bytes of one element of `dtype` (0 for an unknown dtype). */
static inline int64_t amp_dtype_size(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F32:
  case AMP_DTYPE_I32:
    return 4;
  case AMP_DTYPE_F16:
  case AMP_DTYPE_BF16:
    return 2;
  case AMP_DTYPE_I64:
    return 8;
  case AMP_DTYPE_BOOL:
    return 1;
  }
  return 0;
}

/* "f32", "f16", "bf16", "i32", "i64", "bool", or "?" for an unknown dtype. */
static inline const char *amp_dtype_name(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F32:
    return "f32";
  case AMP_DTYPE_F16:
    return "f16";
  case AMP_DTYPE_BF16:
    return "bf16";
  case AMP_DTYPE_I32:
    return "i32";
  case AMP_DTYPE_I64:
    return "i64";
  case AMP_DTYPE_BOOL:
    return "bool";
  }
  return "?";
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AMP_RUNTIME_AMP_RUNTIME_H */
