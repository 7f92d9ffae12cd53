//===- MemoryTest.cpp - Allocation, copies and synchronization ------------===//
//
// amp_alloc / amp_free / amp_host_alloc / amp_host_free / amp_memcpy /
// amp_memset / amp_synchronize of the host backends: alignment, distinct
// zero-byte blocks, overlap checks.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "amp_runtime/gemm.h"

#include "gtest/gtest.h"

#include <cstring>
#include <set>

using namespace amp::test;

namespace {

TEST(Memory, AllocIsAlignedAndDistinct) {
  std::set<void *> seen;
  for (int64_t bytes : {0, 1, 63, 64, 65, 4096, 1000003}) {
    void *p = amp_alloc(bytes, nullptr);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_STREQ(amp_kernel_last_error(), "");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    EXPECT_TRUE(seen.insert(p).second);
    std::memset(p, 0xab, static_cast<size_t>(bytes)); // writable (ASan)
  }
  for (void *p : seen)
    EXPECT_TRUE(isOk(amp_free(p, nullptr)));
  EXPECT_TRUE(isOk(amp_free(nullptr, nullptr)));
  EXPECT_EQ(amp_alloc(-1, nullptr), nullptr);
  EXPECT_NE(std::string(amp_kernel_last_error()).find("amp_alloc"),
            std::string::npos);
}

TEST(Memory, StatsCountLiveBytesAndPeak) {
  amp_memory_reset_peak();
  amp_memory_stats_t before;
  amp_memory_get_stats(&before);
  EXPECT_EQ(before.alloc_calls, 0);
  EXPECT_EQ(before.peak_in_use_bytes, before.in_use_bytes);
  void *a = amp_alloc(1000, nullptr);
  void *b = amp_alloc(24, nullptr);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(isOk(amp_free(a, nullptr)));
  amp_memory_stats_t after;
  amp_memory_get_stats(&after);
  EXPECT_EQ(after.in_use_bytes, before.in_use_bytes + 24);
  EXPECT_EQ(after.peak_in_use_bytes, before.in_use_bytes + 1024);
  EXPECT_EQ(after.alloc_calls, 2);
  if (std::strcmp(amp_gemm_backend_name(), "reference") == 0) {
    // The C heap every time: nothing reserved beyond what is in use.
    EXPECT_EQ(after.reserved_bytes, after.in_use_bytes);
    EXPECT_EQ(after.cache_hits, 0);
  } else {
    // A caching allocator: a freed block serves the next request of its
    // size class.
    EXPECT_GE(after.reserved_bytes, after.in_use_bytes + 1000);
    void *again = amp_alloc(1000, nullptr);
    ASSERT_NE(again, nullptr);
    amp_memory_stats_t cached;
    amp_memory_get_stats(&cached);
    EXPECT_EQ(cached.cache_hits, after.cache_hits + 1);
    EXPECT_EQ(cached.reserved_bytes, after.reserved_bytes);
    ASSERT_TRUE(isOk(amp_free(again, nullptr)));
  }
  ASSERT_TRUE(isOk(amp_free(b, nullptr)));
  amp_memory_reset_peak();
  amp_memory_get_stats(&after);
  EXPECT_EQ(after.peak_in_use_bytes, before.in_use_bytes);
  amp_memory_get_stats(nullptr); // ignored
}

TEST(Memory, HostAllocIsAlignedDistinctAndUncounted) {
  amp_memory_stats_t before, after;
  amp_memory_get_stats(&before);
  std::set<void *> seen;
  for (int64_t bytes : {0, 1, 63, 64, 65, 1000003}) {
    void *p = amp_host_alloc(bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_STREQ(amp_kernel_last_error(), "");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << bytes;
    EXPECT_TRUE(seen.insert(p).second);
    std::memset(p, 0xcd, static_cast<size_t>(bytes)); // writable (ASan)
  }
  amp_memory_get_stats(&after);
  EXPECT_EQ(after.in_use_bytes, before.in_use_bytes); // device memory only
  for (void *p : seen)
    EXPECT_TRUE(isOk(amp_host_free(p)));
  EXPECT_TRUE(isOk(amp_host_free(nullptr)));
  EXPECT_EQ(amp_host_alloc(-1), nullptr);
  EXPECT_NE(std::string(amp_kernel_last_error()).find("amp_host_alloc"),
            std::string::npos);
}

TEST(Memory, CopySetAndSynchronize) {
  char a[32], b[32];
  for (int i = 0; i < 32; ++i)
    a[i] = static_cast<char>(i);
  ASSERT_TRUE(isOk(amp_memcpy(b, a, 32, nullptr)));
  EXPECT_EQ(std::memcmp(a, b, 32), 0);
  EXPECT_TRUE(isOk(amp_memcpy(a, a, 32, nullptr))); // the same range
  EXPECT_TRUE(isOk(amp_memcpy(nullptr, nullptr, 0, nullptr)));
  EXPECT_TRUE(failsWith(amp_memcpy(a + 1, a, 8, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "overlap"));
  EXPECT_TRUE(failsWith(amp_memcpy(a, a + 7, 8, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "overlap"));
  EXPECT_TRUE(isOk(amp_memcpy(a, a + 8, 8, nullptr))); // adjacent is fine
  EXPECT_TRUE(failsWith(amp_memcpy(a, b, -1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "negative"));
  ASSERT_TRUE(isOk(amp_memset(b, 0x7f, 32, nullptr)));
  for (char c : b)
    EXPECT_EQ(c, 0x7f);
  EXPECT_TRUE(failsWith(amp_memset(b, 256, 1, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "not a byte"));
  EXPECT_TRUE(isOk(amp_synchronize(nullptr)));
}

} // namespace
