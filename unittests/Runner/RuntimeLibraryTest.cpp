//===- RuntimeLibraryTest.cpp - finding and loading a backend -------------===//

#include "RunnerTestUtil.h"

#include "amp/Runner/DeviceBuffer.h"
#include "amp/Runner/RuntimeLibrary.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
/// Sets or clears AMP_RUNTIME_DIR for one test.
class ScopedRuntimeDir {
public:
  explicit ScopedRuntimeDir(const char *dir) {
    if (const char *old = std::getenv(kRuntimeDirEnvVar))
      saved = old;
    if (dir)
      setenv(kRuntimeDirEnvVar, dir, 1);
    else
      unsetenv(kRuntimeDirEnvVar);
  }
  ~ScopedRuntimeDir() {
    if (saved)
      setenv(kRuntimeDirEnvVar, saved->c_str(), 1);
    else
      unsetenv(kRuntimeDirEnvVar);
  }

private:
  std::optional<std::string> saved;
};

std::string dirOf(const std::string &path) {
  return path.substr(0, path.rfind('/'));
}
} // namespace

TEST(RuntimeLibraryTest, FileNames) {
  EXPECT_EQ(*runtimeLibraryFileName("reference"), "libamp_runtime_ref.so");
  EXPECT_EQ(*runtimeLibraryFileName("cpu"), "libamp_runtime_cpu.so");
  EXPECT_EQ(*runtimeLibraryFileName("cuda"), "libamp_runtime_cuda.so");
  StatusOr<std::string> bad = runtimeLibraryFileName("tpu");
  ASSERT_TRUE(bad.failed());
  EXPECT_EQ(bad.getStatus().message(),
            "--backend must be cpu, reference or cuda, got 'tpu'");
}

TEST(RuntimeLibraryTest, ExplicitPathIsTakenAsGiven) {
  StatusOr<std::string> path =
      findRuntimeLibrary("reference", "relative/libx.so", "/nowhere");
  ASSERT_FALSE(path.failed());
  EXPECT_EQ(*path, "relative/libx.so");
}

TEST(RuntimeLibraryTest, BareFileNameIsInTheWorkingDirectory) {
  StatusOr<std::string> path =
      findRuntimeLibrary("reference", "libx.so", "/nowhere");
  ASSERT_FALSE(path.failed());
  EXPECT_EQ(*path, "./libx.so");
}

TEST(RuntimeLibraryTest, FoundThroughTheEnvironment) {
  ScopedRuntimeDir env(dirOf(AMP_RUNTIME_REF_PATH).c_str());
  StatusOr<std::string> path = findRuntimeLibrary("reference", "", "");
  ASSERT_FALSE(path.failed()) << path.getStatus().message();
  EXPECT_EQ(*path, dirOf(AMP_RUNTIME_REF_PATH) + "/libamp_runtime_ref.so");
}

TEST(RuntimeLibraryTest, NotFoundSaysWhereItLooked) {
  ScopedRuntimeDir env(nullptr);
  std::string exeDir = tempPath("bin");
  StatusOr<std::string> path = findRuntimeLibrary("reference", "", exeDir);
  ASSERT_TRUE(path.failed());
  const std::string &message = path.getStatus().message();
  EXPECT_NE(message.find("cannot find the runtime library "
                         "libamp_runtime_ref.so (searched: " +
                         exeDir + "/"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("pass --runtime-lib or set AMP_RUNTIME_DIR"),
            std::string::npos)
      << message;
}

TEST(RuntimeLibraryTest, LoadErrors) {
  StatusOr<RuntimeLibrary> missing = RuntimeLibrary::load("/nonexistent.so");
  ASSERT_TRUE(missing.failed());
  EXPECT_EQ(missing.getStatus().message().rfind(
                "cannot load the runtime library '/nonexistent.so': ", 0),
            0u);
  // A shared library that is not a backend.
  StatusOr<RuntimeLibrary> libm = RuntimeLibrary::load("libm.so.6");
  ASSERT_TRUE(libm.failed());
  EXPECT_EQ(libm.getStatus().message(),
            "the runtime library 'libm.so.6' lacks amp_alloc (this backend "
            "does not implement the kernel ABI yet)");
}

TEST(RuntimeLibraryTest, BuffersRoundTrip) {
  const RuntimeLibrary &rt = referenceRuntime();
  EXPECT_STREQ(rt.backendName(), "reference");
  StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, 12);
  ASSERT_FALSE(buffer.failed());
  int32_t in[3] = {1, -2, 3}, out[3] = {};
  ASSERT_TRUE(buffer->upload(in).succeeded());
  ASSERT_TRUE(buffer->download(out).succeeded());
  EXPECT_EQ(std::vector<int32_t>(out, out + 3),
            std::vector<int32_t>(in, in + 3));
  StatusOr<DeviceBuffer> huge = DeviceBuffer::allocate(rt, int64_t{1} << 62);
  ASSERT_TRUE(huge.failed());
  EXPECT_EQ(huge.getStatus().message().rfind("amp_alloc of 4611686018427387904 "
                                             "bytes failed: ",
                                             0),
            0u);
}
