//===- ReadFile.cpp - a whole file's bytes, read or written ---------------===//

#include "amp/Runner/ReadFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unistd.h>

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

Status amp::runner::writeFileBytes(const std::string &path,
                                   const std::vector<char> &bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file)
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (file)
    file.close();
  if (!file)
    return Status::error("cannot write '" + path +
                         "': " + std::strerror(errno));
  return Status::success();
}

Status amp::runner::replaceFileBytes(const std::string &path,
                                     const std::vector<char> &bytes) {
  const std::string temporary =
      path + ".tmp" + std::to_string(static_cast<long>(::getpid()));
  if (writeFileBytes(temporary, bytes).succeeded() &&
      std::rename(temporary.c_str(), path.c_str()) == 0)
    return Status::success();
  // The error names the file asked for, not its temporary.
  Status s =
      Status::error("cannot write '" + path + "': " + std::strerror(errno));
  std::remove(temporary.c_str());
  return s;
}
