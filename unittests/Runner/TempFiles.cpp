//===- TempFiles.cpp - the runner tests' temporary files ------------------===//

#include "TempFiles.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace {

/// The directory, made by mkdtemp on first use and removed at exit.
class TempDirectory {
public:
  const std::string &path() {
    if (dir.empty()) {
      std::string pattern = testing::TempDir() + "amp-runner-XXXXXX";
      std::vector<char> buffer(pattern.begin(), pattern.end());
      buffer.push_back('\0');
      if (!mkdtemp(buffer.data())) {
        ADD_FAILURE() << "cannot make a directory like " << pattern;
        dir = testing::TempDir();
        return dir;
      }
      dir = std::string(buffer.data()) + "/";
      owned = true;
    }
    return dir;
  }

  ~TempDirectory() {
    std::error_code ignored;
    if (owned)
      std::filesystem::remove_all(dir, ignored);
  }

private:
  std::string dir;
  bool owned = false;
};

} // namespace

std::string amp::runner::test::tempPath(const std::string &name) {
  static TempDirectory directory;
  static int counter = 0;
  const testing::TestInfo *info =
      testing::UnitTest::GetInstance()->current_test_info();
  std::string test = info ? info->name() : "global";
  return directory.path() + test + "-" + std::to_string(counter++) + "-" + name;
}
