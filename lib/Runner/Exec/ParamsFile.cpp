//===- ParamsFile.cpp - the params file of --save/--load-params -----------===//

#include "amp/Runner/ParamsFile.h"

#include "amp/Runner/ReadFile.h"
#include "amp_runtime/checked_size.h"
#include "amp_runtime/kernels.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

using namespace amp::runner;

static constexpr char kMagic[] = "AMPPARAM1";
static constexpr size_t kMagicSize = sizeof(kMagic) - 1;

namespace {
/// Reads native-endian fields from the bytes of a file, never past its end.
class Reader {
public:
  explicit Reader(const std::vector<char> &bytes) : bytes(bytes) {}
  size_t remaining() const { return bytes.size() - offset; }
  bool read(void *out, size_t size) {
    if (size > remaining())
      return false;
    if (size == 0) // `out` may be the null data() of an empty vector
      return true;
    std::memcpy(out, bytes.data() + offset, size);
    offset += size;
    return true;
  }

private:
  const std::vector<char> &bytes;
  size_t offset = 0;
};
} // namespace

static std::string describeShape(const std::vector<int64_t> &shape) {
  TensorDesc desc;
  desc.shape = shape;
  std::string text = describeType(desc);
  return text.substr(0, text.rfind(' '));
}

StatusOr<std::vector<HostTensor>>
amp::runner::readParamsFile(const std::string &path) {
  StatusOr<std::vector<char>> bytes = readFileBytes(path, "params file ");
  if (bytes.failed())
    return bytes.takeStatus();
  return parseParamsFile(*bytes, path);
}

StatusOr<std::vector<HostTensor>>
amp::runner::parseParamsFile(const std::vector<char> &bytes,
                             const std::string &path) {
  Reader reader(bytes);
  char magic[kMagicSize];
  int64_t count = 0;
  if (!reader.read(magic, kMagicSize) ||
      std::memcmp(magic, kMagic, kMagicSize) != 0 ||
      !reader.read(&count, sizeof(count)))
    return Status::error("'" + path +
                         "' is not a params file from "
                         "--save-params");
  auto corrupt = [&](int64_t param, const std::string &why) {
    return Status::error("'" + path + "' is damaged: param #" +
                         std::to_string(param) + " " + why);
  };
  // Each param takes at least its 8-byte rank.
  if (count < 0 || static_cast<uint64_t>(count) > reader.remaining() / 8)
    return Status::error("'" + path + "' is damaged: it claims " +
                         std::to_string(count) + " params");
  std::vector<HostTensor> params(count);
  for (int64_t p = 0; p < count; ++p) {
    HostTensor &param = params[p];
    int64_t rank = 0;
    if (!reader.read(&rank, sizeof(rank)))
      return Status::error("'" + path + "' is truncated");
    if (rank < 0 || rank > AMP_KERNEL_MAX_RANK)
      return corrupt(p, "has rank " + std::to_string(rank));
    param.shape.resize(rank);
    if (!reader.read(param.shape.data(), 8 * rank))
      return Status::error("'" + path + "' is truncated");
    // Bound the element count by what the file holds before allocating.
    for (int64_t d : param.shape)
      if (d < 0)
        return corrupt(p, "has shape " + describeShape(param.shape));
    std::optional<int64_t> n =
        amp::checked::elementCount(param.shape.data(), param.shape.size());
    if (!n || static_cast<uint64_t>(*n) > reader.remaining() / sizeof(float))
      return Status::error("'" + path + "' is truncated");
    param.values.resize(*n);
    (void)reader.read(param.values.data(), sizeof(float) * *n);
  }
  if (reader.remaining() != 0)
    return Status::error("'" + path + "' has " +
                         std::to_string(reader.remaining()) +
                         " bytes after its last param");
  return params;
}

Status amp::runner::writeParamsFile(const std::string &path,
                                    const std::vector<HostTensor> &params) {
  std::ofstream file(path, std::ios::binary);
  int64_t count = params.size();
  file.write(kMagic, kMagicSize);
  file.write(reinterpret_cast<const char *>(&count), sizeof(count));
  for (const HostTensor &param : params) {
    int64_t rank = param.shape.size();
    file.write(reinterpret_cast<const char *>(&rank), sizeof(rank));
    file.write(reinterpret_cast<const char *>(param.shape.data()), 8 * rank);
    file.write(reinterpret_cast<const char *>(param.values.data()),
               sizeof(float) * param.values.size());
  }
  if (!file)
    return Status::error("cannot write '" + path + "'");
  return Status::success();
}

std::vector<int> amp::runner::paramsFileArgs(const FunctionSignature &fn,
                                             Role weights) {
  auto argsOf = [&](Role role) {
    std::vector<int> args;
    for (size_t i = 0; i < fn.args.size(); ++i)
      if (fn.args[i].role == role)
        args.push_back(static_cast<int>(i));
    return args;
  };
  return weightArgs(weights, argsOf(Role::Param), argsOf(Role::Buffer),
                    argsOf(Role::Ema));
}

std::vector<int> amp::runner::weightArgs(Role weights,
                                         const std::vector<int> &params,
                                         const std::vector<int> &buffers,
                                         const std::vector<int> &averages) {
  if (weights != Role::Ema) {
    std::vector<int> args = params;
    args.insert(args.end(), buffers.begin(), buffers.end());
    return args;
  }
  std::vector<int> args = averages;
  if (averages.size() <= params.size())
    args.insert(args.end(), buffers.begin(), buffers.end());
  return args;
}

Status amp::runner::checkParamsMatch(const std::vector<HostTensor> &loaded,
                                     const std::string &path,
                                     const FunctionSignature &step,
                                     const std::vector<int> &paramArgs) {
  // "param #1 (%b1)": the model's param (or buffer) by order within its
  // role, and its source name.
  auto paramName = [&](size_t p) {
    const TensorDesc &arg = step.args[paramArgs[p]];
    size_t index = 0;
    for (size_t q = 0; q < p; ++q)
      index += step.args[paramArgs[q]].role == arg.role;
    return withName(
        std::string(roleName(*arg.role)) + " #" + std::to_string(index), arg);
  };
  bool buffers = std::any_of(paramArgs.begin(), paramArgs.end(), [&](int a) {
    return step.args[a].role == Role::Buffer;
  });
  if (loaded.size() != paramArgs.size())
    return Status::error(
        "'" + path + "' holds " + std::to_string(loaded.size()) +
        " params, but @" + step.name + " takes " +
        std::to_string(paramArgs.size()) +
        (buffers ? " params and buffers" : "") +
        (loaded.size() < paramArgs.size()
             ? " (the first missing is " + paramName(loaded.size()) + ")"
             : ""));
  for (size_t p = 0; p < loaded.size(); ++p) {
    const TensorDesc &arg = step.args[paramArgs[p]];
    if (loaded[p].shape != arg.shape)
      return Status::error(paramName(p) + " in '" + path + "' has shape " +
                           describeShape(loaded[p].shape) + ", but argument #" +
                           std::to_string(paramArgs[p]) + " of @" + step.name +
                           " is " + describeShape(arg.shape));
  }
  return Status::success();
}
