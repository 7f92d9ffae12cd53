//===- CompareMemory.cpp - amp_alloc, copies, memset, the counters --------===//

#include "Compare.h"

#include <algorithm>

using namespace amp::compare;

AMP_COMPARE_CASE(memory_roundtrip) {
  for (int64_t n : {0, 1, 7, 1000, 1 << 20}) {
    Host x = randomHost(c.rng, AMP_DTYPE_F32, n, -1, 1);
    for (Backend *b : {c.ref, c.dev}) {
      Buf a = b->upload(x);
      Buf copy = b->alloc(AMP_DTYPE_F32, n);
      b->ok(AMP_CALL(*b, amp_memcpy, copy, a, a.bytes, nullptr));
      c.expectClose(b->name() + " copy of " + std::to_string(n), x,
                    b->download(copy), Tolerance::exact());
    }
  }
}

// Host staging memory: a copy from it into device memory may run after
// amp_memcpy returns (page-locked on a GPU), so the bytes are checked after
// amp_synchronize; and a copy back into it.
AMP_COMPARE_CASE(memory_host_staging) {
  for (int64_t n : {0, 1, 1000, 1 << 22}) {
    Host x = randomHost(c.rng, AMP_DTYPE_F32, n, -1, 1);
    const int64_t bytes = n * 4;
    for (Backend *b : {c.ref, c.dev}) {
      auto *staged = static_cast<char *>(AMP_CALL(*b, amp_host_alloc, bytes));
      if (!staged)
        throw CaseFailure{b->name() + ": amp_host_alloc of " +
                          std::to_string(bytes) + " bytes: " + b->lastError()};
      ++c.checks;
      if (reinterpret_cast<uintptr_t>(staged) % 64 != 0)
        c.fail(b->name() + ": amp_host_alloc is not 64-byte aligned");
      std::copy(x.bytes.begin(), x.bytes.end(), staged);
      Buf a = b->alloc(AMP_DTYPE_F32, n);
      b->ok(AMP_CALL(*b, amp_memcpy, a, staged, bytes, nullptr));
      b->sync();
      Host back = b->download(a);
      std::fill(staged, staged + bytes, 0);
      b->ok(AMP_CALL(*b, amp_memcpy, staged, a, bytes, nullptr));
      Host again = x;
      std::copy(staged, staged + bytes, again.bytes.begin());
      b->ok(AMP_CALL(*b, amp_host_free, staged));
      c.expectClose(b->name() + " upload from staging of " + std::to_string(n),
                    x, back, Tolerance::exact());
      c.expectClose(b->name() + " download into staging of " +
                        std::to_string(n),
                    x, again, Tolerance::exact());
    }
  }
  for (Backend *b : {c.ref, c.dev}) {
    ++c.checks;
    if (AMP_CALL(*b, amp_host_alloc, -1) != nullptr)
      c.fail(b->name() + ": amp_host_alloc(-1) succeeded");
    c.expectSameStatus(b->name() + ": amp_host_free(NULL)", AMP_STATUS_OK,
                       AMP_CALL(*b, amp_host_free, nullptr));
  }
}

AMP_COMPARE_CASE(memory_memset) {
  for (int value : {0, 0x3c, 255}) {
    Host out[2];
    int k = 0;
    for (Backend *b : {c.ref, c.dev}) {
      Buf a = b->alloc(AMP_DTYPE_F16, 999);
      b->ok(AMP_CALL(*b, amp_memset, a, value, a.bytes, nullptr));
      out[k++] = b->download(a);
    }
    c.expectClose("memset " + std::to_string(value), out[0], out[1],
                  Tolerance::exact());
  }
}

AMP_COMPARE_CASE(memory_errors) {
  char host[8];
  for (auto [what, bytes, dst, src] :
       {std::tuple{"negative bytes", int64_t{-1}, (void *)host,
                   (const void *)host},
        std::tuple{"NULL dst", int64_t{4}, (void *)nullptr, (const void *)host},
        std::tuple{"partial overlap", int64_t{4}, (void *)(host + 1),
                   (const void *)host}})
    c.expectSameStatus(what, AMP_CALL(*c.ref, amp_memcpy, dst, src, bytes, nullptr),
                       AMP_CALL(*c.dev, amp_memcpy, dst, src, bytes, nullptr));
  c.expectSameStatus("memset of 256",
                     AMP_CALL(*c.ref, amp_memset, host, 256, 1, nullptr),
                     AMP_CALL(*c.dev, amp_memset, host, 256, 1, nullptr));
  if (AMP_CALL(*c.dev, amp_alloc, -1, nullptr) != nullptr)
    c.fail("amp_alloc(-1) succeeded on cuda");
  c.expectSameStatus("free of a foreign pointer", AMP_STATUS_INVALID_ARGUMENT,
                     AMP_CALL(*c.dev, amp_free, host, nullptr));
}

AMP_COMPARE_CASE(memory_cache_reuses_blocks) {
  Backend &b = *c.dev;
  AMP_CALL(b, amp_memory_reset_peak);
  for (int i = 0; i < 10; ++i) {
    Buf x = b.alloc(AMP_DTYPE_F32, 12345);
    Buf y = b.alloc(AMP_DTYPE_F32, 3 << 20);
  }
  amp_memory_stats_t stats;
  AMP_CALL(b, amp_memory_get_stats, &stats);
  ++c.checks;
  if (stats.alloc_calls != 20 || stats.cache_hits < 18)
    c.fail("20 allocations in 10 rounds: " +
           std::to_string(stats.alloc_calls) + " calls, " +
           std::to_string(stats.cache_hits) + " cache hits");
  const int64_t both = (12345 + (3 << 20)) * 4;
  ++c.checks;
  if (stats.peak_in_use_bytes < both || stats.peak_in_use_bytes > 2 * both)
    c.fail("peak in use " + std::to_string(stats.peak_in_use_bytes) +
           " bytes for two live blocks of " + std::to_string(both));
}
