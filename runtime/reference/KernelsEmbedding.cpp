//===- KernelsEmbedding.cpp - Embedding gather and scatter-add ------------===//
//
// amp_embedding (a row gather, exact) and amp_embedding_grad (a scatter-add
// accumulated in f32 in ascending id order, rounded once) on the reference
// backend. Ids are checked before anything is written.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// Checks sizes, dtypes, pointers and every id; the table dtype is checked
/// by the caller.
amp_status_t checkEmbedding(Checker &check, const void *ids,
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
  if (amp_status_t s = check.pointer("ids", ids, nIds, idsDtype))
    return s;
  return check.indices("id", ids, idsDtype, nIds, numEmbeddings);
}

} // namespace

extern "C" {

amp_status_t amp_embedding(const void *table, const void *ids, void *out,
                           int64_t num_embeddings, int64_t dim, int64_t n_ids,
                           amp_dtype_t dtype, amp_dtype_t ids_dtype,
                           void * /*stream*/) {
  Checker check("amp_embedding");
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          checkEmbedding(check, ids, num_embeddings, dim, n_ids, ids_dtype))
    return s;
  if (amp_status_t s =
          check.pointers({{"table", table, num_embeddings * dim, dtype},
                          {"out", out, n_ids * dim, dtype}}))
    return s;
  const int64_t rowBytes = dim * amp_dtype_size(dtype);
  const char *src = static_cast<const char *>(table);
  char *dst = static_cast<char *>(out);
  for (int64_t i = 0; i < n_ids && rowBytes > 0; ++i)
    std::memcpy(dst + i * rowBytes,
                src + loadIndex(ids, ids_dtype, i) * rowBytes,
                static_cast<size_t>(rowBytes));
  return AMP_STATUS_OK;
}

amp_status_t amp_embedding_grad(const void *dy, const void *ids, void *dtable,
                                int64_t num_embeddings, int64_t dim,
                                int64_t n_ids, amp_dtype_t dy_dtype,
                                amp_dtype_t ids_dtype, amp_dtype_t dtable_dtype,
                                void * /*stream*/) {
  Checker check("amp_embedding_grad");
  if (amp_status_t s = check.dtype("dy_dtype", dy_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          check.accumulatorDtype("dtable_dtype", dtable_dtype, dy_dtype))
    return s;
  if (amp_status_t s =
          checkEmbedding(check, ids, num_embeddings, dim, n_ids, ids_dtype))
    return s;
  if (amp_status_t s = check.pointers(
          {{"dy", dy, n_ids * dim, dy_dtype},
           {"dtable", dtable, num_embeddings * dim, dtable_dtype}}))
    return s;
  return guarded(check, [&] {
    // An f32 table is its own accumulator; otherwise accumulate in a scratch.
    const int64_t size = num_embeddings * dim;
    std::vector<float> scratch;
    float *acc = static_cast<float *>(dtable);
    if (dtable_dtype != AMP_DTYPE_F32) {
      scratch.resize(static_cast<size_t>(size));
      acc = scratch.data();
    }
    std::fill(acc, acc + size, 0.0f);
    dispatchFloat(dy_dtype, [&](auto t) {
      using T = decltype(t);
      const T *g = static_cast<const T *>(dy);
      for (int64_t i = 0; i < n_ids; ++i) {
        float *row = acc + loadIndex(ids, ids_dtype, i) * dim;
        const T *gr = g + i * dim;
        for (int64_t k = 0; k < dim; ++k)
          row[k] += toF32(gr[k]);
      }
    });
    if (dtable_dtype != AMP_DTYPE_F32)
      dispatchFloat(dtable_dtype, [&](auto t) {
        using T = decltype(t);
        T *out = static_cast<T *>(dtable);
        for (int64_t i = 0; i < size; ++i)
          out[i] = fromF32<T>(acc[i]);
      });
  });
}

} // extern "C"
