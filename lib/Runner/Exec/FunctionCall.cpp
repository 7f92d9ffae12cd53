//===- FunctionCall.cpp - run one function on given tensors ---------------===//

#include "amp/Runner/FunctionCall.h"

#include "amp/Runner/DeviceBuffer.h"
#include "amp/Runner/Text.h"

#include "amp_runtime/amp_runtime.h"

#include <map>
#include <optional>
#include <ostream>

using namespace amp::runner;

Status FunctionCallOptions::validate() const {
  if (function.empty()) {
    if (!inputs.empty() || !outputs.empty() || !expected.empty())
      return Status::error(
          "--input, --output and --expected-output need --function");
    return Status::success();
  }
  if (!(tolerance >= 0))
    return Status::error("--tolerance must be >= 0");
  return Status::success();
}

static std::string stripAt(const std::string &path) {
  return !path.empty() && path[0] == '@' ? path.substr(1) : path;
}

static bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StatusOr<HostArray> amp::runner::readTensorFile(const std::string &spec,
                                                TensorReader readOther) {
  std::string path = stripAt(spec);
  if (endsWith(path, ".npy"))
    return readNpyFile(path);
  if (readOther)
    return readOther(path);
  return Status::error("'" + path +
                       "': only .npy tensor files are supported here "
                       "(.pb needs amp-run built with the ONNX importer)");
}

StatusOr<std::vector<HostArray>>
amp::runner::callFunction(const RuntimeLibrary &rt, const FunctionSignature &fn,
                          StepFn entry, const char *const *errorSite,
                          const std::vector<HostArray> &inputs,
                          const std::vector<HostTensor> &params) {
  if (Status s = checkSignature(fn); s.failed())
    return s;
  // fileIndex[i]: argument i's tensor in the params file.
  std::map<size_t, size_t> fileIndex;
  size_t numBuffers = 0;
  for (int a : paramsFileArgs(fn)) {
    fileIndex[a] = fileIndex.size();
    numBuffers += fn.args[a].role == Role::Buffer;
  }
  const size_t numParams = fileIndex.size() - numBuffers;
  const std::string state =
      std::to_string(numParams) + " params" +
      (numBuffers ? " and " + std::to_string(numBuffers) + " buffers" : "");
  if (inputs.size() != fn.args.size() - fileIndex.size())
    return Status::error("@" + fn.name + " takes " +
                         std::to_string(fn.args.size() - fileIndex.size()) +
                         " inputs besides its " + state + "; " +
                         std::to_string(inputs.size()) + " --input given");
  if (params.size() != fileIndex.size())
    return Status::error(
        "@" + fn.name + " has " + state + "; " +
        (params.empty()
             ? std::string("give their values with --load-params")
             : std::to_string(params.size()) + " are in the params file"));

  std::vector<DeviceBuffer> buffers;
  std::vector<void *> pointers;
  size_t input = 0;
  for (size_t i = 0; i < fn.args.size(); ++i) {
    const TensorDesc &arg = fn.args[i];
    std::string name = withName("argument #" + std::to_string(i), arg);
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, arg.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    if (auto saved = fileIndex.find(i); saved != fileIndex.end()) {
      const HostTensor &p = params[saved->second];
      if (p.shape != arg.shape || arg.type != ElementType::F32)
        return Status::error(std::string(roleName(*arg.role)) + " " + name +
                             " is " + describeType(arg) +
                             "; the params file holds another shape");
      if (Status s = buffer->upload(p.values.data()); s.failed())
        return s;
    } else {
      const HostArray &given = inputs[input++];
      const std::string what = "--input #" + std::to_string(input);
      auto mismatch = [&] {
        return Status::error(what + " is " + describeArray(given) + "; " +
                             name + " is " + describeType(arg));
      };
      if (given.shape != arg.shape)
        return mismatch();
      // An integer array feeds any integer argument that holds its values
      // (a uint8 image or int64 ids an i32 argument, 0/1 an i1 mask).
      const char *bytes = given.bytes.data();
      std::optional<StatusOr<HostArray>> converted;
      if (given.type != arg.type) {
        if (!isInteger(given.type) || !isInteger(arg.type))
          return mismatch();
        converted = convertIntegers(given, arg.type);
        if (converted->failed())
          return Status::error(what + " does not fit " + name + ", " +
                               describeType(arg) + ": " +
                               converted->getStatus().message());
        bytes = (*converted)->bytes.data();
      }
      if (Status s = buffer->upload(bytes); s.failed())
        return s;
    }
    pointers.push_back(buffer->data());
    buffers.push_back(std::move(*buffer));
  }
  // A result computed in an argument's buffer (amp.aliasing_output) is read
  // from there.
  std::vector<DeviceBuffer> resultBuffers;
  for (const TensorDesc &result : fn.results) {
    if (result.inArgument) {
      pointers.push_back(buffers[*result.inArgument].data());
      resultBuffers.emplace_back();
      continue;
    }
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, result.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    pointers.push_back(buffer->data());
    resultBuffers.push_back(std::move(*buffer));
  }
  int32_t status = entry(pointers.data());
  if (status != AMP_STATUS_OK) {
    const char *site = errorSite && *errorSite ? *errorSite : "?";
    return Status::error("@" + fn.name + " failed with status " +
                         std::to_string(status) + " at " + site + ": " +
                         rt.lastError());
  }
  std::vector<HostArray> results;
  for (size_t i = 0; i < fn.results.size(); ++i) {
    HostArray r;
    r.type = fn.results[i].type;
    r.shape = fn.results[i].shape;
    std::optional<int> a = fn.results[i].inArgument;
    StatusOr<std::vector<char>> bytes =
        (a ? buffers[*a] : resultBuffers[i]).read();
    if (bytes.failed())
      return bytes.takeStatus();
    r.bytes = std::move(*bytes);
    results.push_back(std::move(r));
  }
  return results;
}

Status amp::runner::runFunctionCall(const RuntimeLibrary &rt,
                                    const FunctionSignature &fn, StepFn entry,
                                    const char *const *errorSite,
                                    const FunctionCallOptions &options,
                                    TensorReader readOther, std::ostream &out) {
  if (options.outputs.size() > fn.results.size() ||
      options.expected.size() > fn.results.size())
    return Status::error("@" + fn.name + " has " +
                         std::to_string(fn.results.size()) +
                         " results; more --output or --expected-output given");
  std::vector<HostArray> inputs;
  for (const std::string &spec : options.inputs) {
    StatusOr<HostArray> a = readTensorFile(spec, readOther);
    if (a.failed())
      return a.takeStatus();
    inputs.push_back(std::move(*a));
  }
  std::vector<HostArray> expected;
  for (const std::string &spec : options.expected) {
    StatusOr<HostArray> a = readTensorFile(spec, readOther);
    if (a.failed())
      return a.takeStatus();
    expected.push_back(std::move(*a));
  }
  std::vector<HostTensor> params;
  if (!options.params.empty()) {
    StatusOr<std::vector<HostTensor>> p = readParamsFile(options.params);
    if (p.failed())
      return p.takeStatus();
    params = std::move(*p);
  }
  StatusOr<std::vector<HostArray>> results =
      callFunction(rt, fn, entry, errorSite, inputs, params);
  if (results.failed())
    return results.takeStatus();
  for (size_t i = 0; i < options.outputs.size(); ++i)
    if (Status s = writeNpyFile(stripAt(options.outputs[i]), (*results)[i]);
        s.failed())
      return s;
  for (size_t i = 0; i < results->size(); ++i) {
    out << "@" << fn.name << " result #" << i << ": "
        << describeArray((*results)[i]);
    if (i < expected.size()) {
      if (Status s =
              compareArrays((*results)[i], expected[i], options.tolerance,
                            "result #" + std::to_string(i));
          s.failed())
        return s;
      out << ", matches " << stripAt(options.expected[i]) << " (tolerance "
          << formatString("%g", options.tolerance) << ")";
    }
    out << "\n";
  }
  return Status::success();
}
