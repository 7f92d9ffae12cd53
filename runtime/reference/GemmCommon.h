//===- GemmCommon.h - GEMM request validation and error reporting --------===//
//
// What both GEMM backends do before any arithmetic: check an amp_gemm_desc_t
// (so that the two libraries accept and reject exactly the same requests,
// with the same messages), and keep the thread-local message that
// amp_gemm_last_error() returns. Host-only C++.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_GEMMCOMMON_H
#define AMP_RUNTIME_REFERENCE_GEMMCOMMON_H

#include "amp_runtime/gemm.h"

namespace amp {
namespace runtime {

/// Checks `desc` against the rules of gemm.h. On failure records the reason
/// (see lastGemmError) and returns INVALID_ARGUMENT or NOT_SUPPORTED.
amp_status_t validateGemm(const amp_gemm_desc_t *desc);

/// Records a printf-style message as the calling thread's last error and
/// returns `status`, so that callers can `return gemmError(...)`.
amp_status_t gemmError(amp_status_t status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Clears the calling thread's last error (the start of every amp_gemm).
void clearGemmError();

/// The calling thread's last error, "" if none.
const char *lastGemmError();

/// The dtype's name ("f16"), "?" for an unknown value.
const char *dtypeName(amp_dtype_t dtype);

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_GEMMCOMMON_H
