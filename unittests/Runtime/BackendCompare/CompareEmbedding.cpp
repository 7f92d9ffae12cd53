//===- CompareEmbedding.cpp - amp_embedding, amp_embedding_grad -----------===//
//
// The gather copies rows, so it matches the reference bitwise. The gradient
// sums dy's rows per id in f32 in ascending row order with one writer per
// element (KernelsEmbedding.cu), the reference's order, so it matches
// bitwise too, repeated ids included; a second run must give the same bits
// (a CUDA graph replay relies on it).
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "CompareBuffers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

using namespace amp::compare;

namespace {

std::vector<amp_dtype_t> idDtypes() { return {AMP_DTYPE_I32, AMP_DTYPE_I64}; }

struct Sizes {
  int64_t numEmbeddings, dim, nIds;
};

std::string str(const Sizes &s) {
  return std::to_string(s.numEmbeddings) + "x" + std::to_string(s.dim) + ", " +
         std::to_string(s.nIds) + " ids";
}

/// Ids without repeats (nIds <= numEmbeddings).
Host distinctIds(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t nIds,
                 int64_t numEmbeddings) {
  std::vector<int64_t> all(static_cast<size_t>(numEmbeddings));
  for (int64_t i = 0; i < numEmbeddings; ++i)
    all[i] = i;
  std::shuffle(all.begin(), all.end(), rng);
  Host h = zeros(dtype, nIds);
  for (int64_t i = 0; i < nIds; ++i)
    h.set(i, static_cast<double>(all[i]));
  return h;
}

} // namespace

AMP_COMPARE_CASE(embedding_gather) {
  const std::vector<Sizes> sizes = {
      {10, 7, 13},       {1000, 256, 512},  {5, 1, 3},  {10, 4, 0},
      {10, 0, 5},        {50000, 64, 4096}, {3, 33, 1}, {100, 1000, 77},
      {1000, 16, 40000}, // more rows than warps: grid-stride loop
  };
  // Float tables, and integer ones (a gather of ids, ONNX's Gather of
  // INT64 data).
  std::vector<amp_dtype_t> tableDtypes = floatDtypes();
  tableDtypes.insert(tableDtypes.end(), {AMP_DTYPE_I32, AMP_DTYPE_I64});
  for (amp_dtype_t dt : tableDtypes)
    for (amp_dtype_t it : idDtypes())
      for (const Sizes &s : sizes)
        for (int64_t shift : {0, 1}) {
          const int64_t n = s.numEmbeddings * s.dim;
          Host table = dt == AMP_DTYPE_I32 || dt == AMP_DTYPE_I64
                           ? randomIndices(c.rng, dt, n, int64_t(1) << 30)
                           : randomHost(c.rng, dt, n, -2, 2);
          Host ids = randomIndices(c.rng, it, s.nIds, s.numEmbeddings);
          Host poison = randomHost(c.rng, dt, s.nIds * s.dim + shift, -9, 9);
          auto run = [&](Backend &b) {
            Host shifted = zeros(dt, table.numel() + shift);
            std::copy(table.bytes.begin(), table.bytes.end(),
                      shifted.bytes.begin() + shift * amp_dtype_size(dt));
            Buf dt_ = b.upload(shifted), di = b.upload(ids);
            Buf out = b.upload(poison);
            // Table and output one element into their buffers: narrower
            // accesses.
            const int64_t off = shift * amp_dtype_size(dt);
            b.ok(AMP_CALL(b, amp_embedding,
                          static_cast<char *>(dt_.get()) + off, di,
                          static_cast<char *>(out.get()) + off, s.numEmbeddings,
                          s.dim, s.nIds, dt, it, nullptr));
            return b.download(out);
          };
          c.expectClose(std::string("embedding ") + amp_dtype_name(dt) + " " +
                            amp_dtype_name(it) + " " + str(s) + " shift " +
                            std::to_string(shift),
                        run(*c.ref), run(*c.dev), Tolerance::exact());
        }
}

namespace {

/// dy dtype, dtable dtype.
const std::pair<amp_dtype_t, amp_dtype_t> kGradDtypes[] = {
    {AMP_DTYPE_F32, AMP_DTYPE_F32},  {AMP_DTYPE_F16, AMP_DTYPE_F16},
    {AMP_DTYPE_F16, AMP_DTYPE_F32},  {AMP_DTYPE_BF16, AMP_DTYPE_BF16},
    {AMP_DTYPE_BF16, AMP_DTYPE_F32},
};

void compareGrad(Context &c, const std::string &what, const Sizes &s,
                 amp_dtype_t dyDt, amp_dtype_t it, amp_dtype_t tableDt,
                 const Host &ids, Tolerance tol,
                 int64_t padding = AMP_IGNORE_NONE, int32_t scale = 0) {
  Host dy = randomHost(c.rng, dyDt, s.nIds * s.dim, -1, 1);
  Host poison = randomHost(c.rng, tableDt, s.numEmbeddings * s.dim, -9, 9);
  auto run = [&](Backend &b) {
    Buf ddy = b.upload(dy), di = b.upload(ids), out = b.upload(poison);
    b.ok(AMP_CALL(b, amp_embedding_grad, ddy, di, out, s.numEmbeddings, s.dim,
                  s.nIds, padding, scale, dyDt, it, tableDt, nullptr));
    return b.download(out);
  };
  c.expectClose(what + " " + amp_dtype_name(dyDt) + "->" +
                    amp_dtype_name(tableDt) + " " + amp_dtype_name(it) + " " +
                    str(s) +
                    (padding == AMP_IGNORE_NONE
                         ? std::string()
                         : " padding_idx " + std::to_string(padding)) +
                    (scale ? " scale_grad_by_freq" : ""),
                run(*c.ref), run(*c.dev), tol);
}

} // namespace

AMP_COMPARE_CASE(embedding_grad_distinct_ids) {
  // Every element is one addition to +0, rounded once: bitwise.
  const std::vector<Sizes> sizes = {
      {10, 7, 10}, {1000, 256, 512}, {50000, 64, 4096}, {7, 3, 0},
      {0, 4, 0},   {10, 0, 5},       {33, 1000, 31},
  };
  for (auto [dyDt, tableDt] : kGradDtypes)
    for (amp_dtype_t it : idDtypes())
      for (const Sizes &s : sizes) {
        Host ids = distinctIds(c.rng, it, s.nIds, s.numEmbeddings);
        compareGrad(c, "embedding_grad (distinct ids)", s, dyDt, it, tableDt,
                    ids, Tolerance::exact());
      }
}

AMP_COMPARE_CASE(embedding_grad_repeated_ids) {
  const std::vector<Sizes> sizes = {
      {10, 7, 100},      {1000, 256, 4096}, {3, 1, 1000},
      {50000, 64, 8192}, {2, 33, 65},       {1000, 16, 40000},
  };
  for (auto [dyDt, tableDt] : kGradDtypes)
    for (amp_dtype_t it : idDtypes())
      for (const Sizes &s : sizes) {
        Host ids = randomIndices(c.rng, it, s.nIds, s.numEmbeddings);
        const Tolerance tol = Tolerance::exact();
        compareGrad(c, "embedding_grad (repeated ids)", s, dyDt, it, tableDt,
                    ids, tol);
        // The first id as the padding row: its rows are left out; and
        // each row divided by its id's count (scale_grad_by_freq).
        compareGrad(c, "embedding_grad (repeated ids)", s, dyDt, it, tableDt,
                    ids, tol, static_cast<int64_t>(ids.get(0)));
        compareGrad(c, "embedding_grad (repeated ids)", s, dyDt, it, tableDt,
                    ids, tol, AMP_IGNORE_NONE, 1);
      }
}

AMP_COMPARE_CASE(embedding_id_out_of_range) {
  if (!c.deferredErrors) {
    c.skipped = "the device backend reports errors from the call";
    return;
  }
  // The reference fails the call; the CUDA call is queued (OK) and the next
  // amp_synchronize fails. The gather writes zeros for the bad row; the
  // gradient skips it.
  const int64_t numEmbeddings = 10, dim = 5;
  for (amp_dtype_t it : idDtypes())
    for (int64_t bad : {int64_t{10}, int64_t{-1}, int64_t{1} << 40}) {
      if (it == AMP_DTYPE_I32 && bad > INT32_MAX)
        continue;
      Host ids = zeros(it, 4);
      const int64_t values[4] = {0, 3, bad, 1};
      for (int i = 0; i < 4; ++i)
        ids.set(i, static_cast<double>(values[i]));
      Host table = randomHost(c.rng, AMP_DTYPE_F32, numEmbeddings * dim, -1, 1);
      const std::string what =
          std::string("id ") + std::to_string(bad) + " " + amp_dtype_name(it);

      // Gather.
      Buf rt = c.ref->upload(table), ri = c.ref->upload(ids);
      Buf ro = c.ref->alloc(AMP_DTYPE_F32, 4 * dim);
      const amp_status_t refStatus =
          AMP_CALL(*c.ref, amp_embedding, rt, ri, ro, numEmbeddings, dim, 4,
                   AMP_DTYPE_F32, it, nullptr);
      Buf dt = c.dev->upload(table), di = c.dev->upload(ids);
      Buf dout = c.dev->alloc(AMP_DTYPE_F32, 4 * dim);
      c.expectSameStatus(
          "embedding " + what + ": the CUDA call is queued", AMP_STATUS_OK,
          AMP_CALL(*c.dev, amp_embedding, dt, di, dout, numEmbeddings, dim, 4,
                   AMP_DTYPE_F32, it, nullptr));
      c.expectSameStatus("embedding " + what + ": amp_synchronize", refStatus,
                         AMP_CALL(*c.dev, amp_synchronize, nullptr));
      c.expectSameStatus("embedding " + what + ": the error is cleared",
                         AMP_STATUS_OK,
                         AMP_CALL(*c.dev, amp_synchronize, nullptr));
      Host expected = zeros(AMP_DTYPE_F32, 4 * dim);
      for (int i = 0; i < 4; ++i)
        if (i != 2)
          for (int64_t k = 0; k < dim; ++k)
            expected.set(i * dim + k, table.get(values[i] * dim + k));
      c.expectClose("embedding " + what + ": the good rows, zeros for the bad",
                    expected, c.dev->download(dout), Tolerance::exact());

      // Gradient.
      Host dy = randomHost(c.rng, AMP_DTYPE_F32, 4 * dim, -1, 1);
      Buf rdy = c.ref->upload(dy);
      Buf rdt = c.ref->alloc(AMP_DTYPE_F32, numEmbeddings * dim);
      const amp_status_t refGrad = AMP_CALL(
          *c.ref, amp_embedding_grad, rdy, ri, rdt, numEmbeddings, dim, 4,
          AMP_IGNORE_NONE, 0, AMP_DTYPE_F32, it, AMP_DTYPE_F32, nullptr);
      Buf ddy = c.dev->upload(dy);
      Buf ddt = c.dev->alloc(AMP_DTYPE_F32, numEmbeddings * dim);
      c.expectSameStatus("embedding_grad " + what + ": the CUDA call is queued",
                         AMP_STATUS_OK,
                         AMP_CALL(*c.dev, amp_embedding_grad, ddy, di, ddt,
                                  numEmbeddings, dim, 4, AMP_IGNORE_NONE, 0,
                                  AMP_DTYPE_F32, it, AMP_DTYPE_F32, nullptr));
      const amp_status_t devGrad = AMP_CALL(*c.dev, amp_synchronize, nullptr);
      const std::string message = c.dev->lastError();
      c.expectSameStatus("embedding_grad " + what + ": amp_synchronize",
                         refGrad, devGrad);
      ++c.checks;
      if (message.find("amp_embedding_grad: id") == std::string::npos)
        c.fail("embedding_grad " + what +
               ": amp_synchronize's message does not name the gradient: " +
               message);
      Host sums = zeros(AMP_DTYPE_F32, numEmbeddings * dim);
      for (int i = 0; i < 4; ++i)
        if (i != 2)
          for (int64_t k = 0; k < dim; ++k)
            sums.set(values[i] * dim + k, dy.get(i * dim + k));
      c.expectClose("embedding_grad " + what + ": the good rows only", sums,
                    c.dev->download(ddt), Tolerance::exact());
    }
}

AMP_COMPARE_CASE(embedding_errors) {
  const amp_dtype_t f32 = AMP_DTYPE_F32, i32 = AMP_DTYPE_I32;
  auto both =
      [&](const char *what,
          const std::function<amp_status_t(Backend &, void *, void *, void *)>
              &call) {
        expectRejected(c, what, [&](Backend &b) {
          Buf table = b.alloc(f32, 64), out = b.alloc(f32, 64);
          Buf ids = b.upload(zeros(i32, 4));
          return call(b, table, ids, out);
        });
      };
  both("negative dim", [&](Backend &b, void *t, void *i, void *o) {
    return AMP_CALL(b, amp_embedding, t, i, o, 4, -1, 4, f32, i32, nullptr);
  });
  both("f32 ids", [&](Backend &b, void *t, void *i, void *o) {
    return AMP_CALL(b, amp_embedding, t, i, o, 4, 4, 4, f32, f32, nullptr);
  });
  both("NULL table", [&](Backend &b, void *, void *i, void *o) {
    return AMP_CALL(b, amp_embedding, nullptr, i, o, 4, 4, 4, f32, i32,
                    nullptr);
  });
  both("bool table", [&](Backend &b, void *t, void *i, void *o) {
    return AMP_CALL(b, amp_embedding, t, i, o, 4, 4, 4, AMP_DTYPE_BOOL, i32,
                    nullptr);
  });
  both("grad into f16 from f32", [&](Backend &b, void *dy, void *i, void *o) {
    return AMP_CALL(b, amp_embedding_grad, dy, i, o, 4, 4, 4, AMP_IGNORE_NONE,
                    0, f32, i32, AMP_DTYPE_F16, nullptr);
  });
  both("grad with NULL ids", [&](Backend &b, void *dy, void *, void *o) {
    return AMP_CALL(b, amp_embedding_grad, dy, nullptr, o, 4, 4, 4,
                    AMP_IGNORE_NONE, 0, f32, i32, f32, nullptr);
  });
  both("grad with padding_idx past the table",
       [&](Backend &b, void *dy, void *i, void *o) {
         return AMP_CALL(b, amp_embedding_grad, dy, i, o, 4, 4, 4, 4, 0, f32,
                         i32, f32, nullptr);
       });
}
