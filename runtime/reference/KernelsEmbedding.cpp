//===- KernelsEmbedding.cpp - Embedding gather and scatter-add ------------===//
//
// amp_embedding (a row gather, exact) and amp_embedding_grad (a scatter-add
// accumulated in f32 in ascending id order, rounded once, the padding row
// left out, each addition divided by its id's count when scaled by
// frequency) on the reference backend. Ids are checked before anything is
// written.
//
//===----------------------------------------------------------------------===//

#include "reference/EmbeddingChecks.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

extern "C" {

amp_status_t amp_embedding(const void *table, const void *ids, void *out,
                           int64_t num_embeddings, int64_t dim, int64_t n_ids,
                           amp_dtype_t dtype, amp_dtype_t ids_dtype,
                           void * /*stream*/) {
  Checker check("amp_embedding");
  if (amp_status_t s = checkEmbedding(check, table, ids, out, num_embeddings,
                                      dim, n_ids, dtype, ids_dtype))
    return s;
  if (amp_status_t s =
          check.indices("id", ids, ids_dtype, n_ids, num_embeddings))
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
                                int64_t n_ids, int64_t padding_idx,
                                int32_t scale_grad_by_freq,
                                amp_dtype_t dy_dtype, amp_dtype_t ids_dtype,
                                amp_dtype_t dtable_dtype, void * /*stream*/) {
  Checker check("amp_embedding_grad");
  if (amp_status_t s =
          checkEmbeddingGrad(check, dy, ids, dtable, num_embeddings, dim, n_ids,
                             padding_idx, dy_dtype, ids_dtype, dtable_dtype))
    return s;
  if (amp_status_t s =
          check.indices("id", ids, ids_dtype, n_ids, num_embeddings))
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
    // Each id's count, the divisor of its additions (1 without scaling:
    // x / 1 is x).
    std::vector<float> divisor;
    if (scale_grad_by_freq) {
      std::vector<int64_t> counts(static_cast<size_t>(num_embeddings));
      for (int64_t i = 0; i < n_ids; ++i)
        ++counts[loadIndex(ids, ids_dtype, i)];
      divisor.assign(counts.begin(), counts.end());
    }
    dispatchFloat(dy_dtype, [&](auto t) {
      using T = decltype(t);
      const T *g = static_cast<const T *>(dy);
      for (int64_t i = 0; i < n_ids; ++i) {
        const int64_t id = loadIndex(ids, ids_dtype, i);
        if (id == padding_idx)
          continue;
        const float by = divisor.empty() ? 1.0f : divisor[id];
        float *row = acc + id * dim;
        const T *gr = g + i * dim;
        for (int64_t k = 0; k < dim; ++k)
          row[k] += toF32(gr[k]) / by;
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
