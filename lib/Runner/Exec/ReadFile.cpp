//===- ReadFile.cpp - a whole file's bytes, or why not --------------------===//

#include "amp/Runner/ReadFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace amp::runner;

StatusOr<std::vector<char>>
amp::runner::readFileBytes(const std::string &path, const std::string &what) {
  auto failure = [&] {
    return Status::error("cannot read " + what + "'" + path +
                         "': " + std::strerror(errno));
  };
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return failure();
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (file.bad())
    return failure();
  return bytes;
}
