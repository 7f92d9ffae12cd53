//===- EmbeddingChecks.cpp - Argument checks of the embedding kernels -----===//

#include "reference/EmbeddingChecks.h"

namespace amp {
namespace runtime {
namespace kernels {

namespace {

/// Sizes, the ids' dtype and pointer; the table dtype is checked by the
/// caller.
amp_status_t checkSizesAndIds(Checker &check, const void *ids,
                              int64_t numEmbeddings, int64_t dim, int64_t nIds,
                              amp_dtype_t idsDtype) {
  if (amp_status_t s = check.count("num_embeddings", numEmbeddings))
    return s;
  if (amp_status_t s = check.count("dim", dim))
    return s;
  if (amp_status_t s = check.count("n_ids", nIds))
    return s;
  int64_t unused;
  const int64_t tableDims[2] = {numEmbeddings, dim}, outDims[2] = {nIds, dim};
  if (amp_status_t s = check.shape("the table", tableDims, 2, &unused))
    return s;
  if (amp_status_t s = check.shape("the output", outDims, 2, &unused))
    return s;
  if (amp_status_t s = check.dtype("ids_dtype", idsDtype, kIndexDtypes))
    return s;
  return check.pointer("ids", ids, nIds, idsDtype);
}

} // namespace

amp_status_t checkEmbedding(Checker &check, const void *table, const void *ids,
                            const void *out, int64_t numEmbeddings, int64_t dim,
                            int64_t nIds, amp_dtype_t dtype,
                            amp_dtype_t idsDtype) {
  // Rows are copied whole: a float table, or an integer one (a gather of
  // ids).
  if (amp_status_t s = check.dtype("dtype", dtype, kNumericDtypes))
    return s;
  if (amp_status_t s =
          checkSizesAndIds(check, ids, numEmbeddings, dim, nIds, idsDtype))
    return s;
  return check.pointers({{"table", table, numEmbeddings * dim, dtype},
                         {"out", out, nIds * dim, dtype}});
}

amp_status_t checkEmbeddingGrad(Checker &check, const void *dy, const void *ids,
                                const void *dtable, int64_t numEmbeddings,
                                int64_t dim, int64_t nIds, int64_t paddingIdx,
                                amp_dtype_t dyDtype, amp_dtype_t idsDtype,
                                amp_dtype_t dtableDtype) {
  if (amp_status_t s = check.dtype("dy_dtype", dyDtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          check.accumulatorDtype("dtable_dtype", dtableDtype, dyDtype))
    return s;
  if (amp_status_t s =
          checkSizesAndIds(check, ids, numEmbeddings, dim, nIds, idsDtype))
    return s;
  if (paddingIdx != AMP_IGNORE_NONE &&
      (paddingIdx < 0 || paddingIdx >= numEmbeddings))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "padding_idx %lld is not a row of the %lld-row table",
                      static_cast<long long>(paddingIdx),
                      static_cast<long long>(numEmbeddings));
  return check.pointers({{"dy", dy, nIds * dim, dyDtype},
                         {"dtable", dtable, numEmbeddings * dim, dtableDtype}});
}

} // namespace kernels
} // namespace runtime
} // namespace amp
