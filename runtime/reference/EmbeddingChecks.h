//===- EmbeddingChecks.h - Argument checks of the embedding kernels -------===//
//
// The argument checks of amp_embedding and amp_embedding_grad shared by the
// reference and the CUDA backend (amp_kernel_core): sizes, dtypes and
// pointers. The ids' values are data: the reference checks them with
// Checker::indices after these checks, the CUDA kernels on the device.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_EMBEDDINGCHECKS_H
#define AMP_RUNTIME_REFERENCE_EMBEDDINGCHECKS_H

#include "reference/KernelCommon.h"

namespace amp {
namespace runtime {
namespace kernels {

amp_status_t checkEmbedding(Checker &check, const void *table, const void *ids,
                            const void *out, int64_t numEmbeddings, int64_t dim,
                            int64_t nIds, amp_dtype_t dtype,
                            amp_dtype_t idsDtype);

amp_status_t checkEmbeddingGrad(Checker &check, const void *dy, const void *ids,
                                const void *dtable, int64_t numEmbeddings,
                                int64_t dim, int64_t nIds, int64_t paddingIdx,
                                amp_dtype_t dyDtype, amp_dtype_t idsDtype,
                                amp_dtype_t dtableDtype);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_EMBEDDINGCHECKS_H
