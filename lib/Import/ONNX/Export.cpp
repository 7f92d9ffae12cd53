//===- Export.cpp - the trained values back into the ONNX model ----------===//
//
// What closes the loop of the importer (docs/onnx.md, "The trained model
// back to ONNX"): a model imported, trained by amp-run and saved
// (--save-params, --save-checkpoint) goes back to ONNX with the trained
// values in its initializers, for ONNX Runtime or any other consumer.
// The model is imported again with the same options, which gives each
// argument's initializers (ONNXParam::initializers: its own, and those the
// torch.export-based exporter folded from it); the trained file must hold
// exactly those arguments. Everything else of the model (its graph, its
// opset, the frozen initializers, the metadata) is written as it was read.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "amp/Runner/NpzFile.h"
#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/ReadFile.h"
#include "amp/Runner/Trainer.h"
#include "amp_runtime/float16.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstring>
#include <limits>

using namespace amp;
using namespace amp::onnx_import;
using namespace mlir;

namespace {

using runner::HostTensor;

/// Tensors of at least this many bytes go to the external data file, as
/// onnx.save_model's size_threshold and PyTorch's exporter have it.
constexpr size_t kExternalThreshold = 1024;

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

/// The arrays of a checkpoint for the step arguments of `role`, in index
/// order, until the first index it lacks.
runner::StatusOr<std::vector<HostTensor>>
checkpointArrays(const runner::NamedArrays &arrays, runner::Role role,
                 const std::string &path) {
  std::vector<HostTensor> out;
  for (;;) {
    const std::string name = runner::checkpointArrayName(role, out.size());
    auto it =
        llvm::find_if(arrays, [&](const auto &a) { return a.first == name; });
    if (it == arrays.end())
      return out;
    const runner::HostArray &a = it->second;
    if (a.type != runner::ElementType::F32)
      return runner::Status::error("checkpoint '" + path + "': array '" + name +
                                   "' is not f32");
    HostTensor t;
    t.shape = a.shape;
    t.values.resize(a.bytes.size() / sizeof(float));
    std::memcpy(t.values.data(), a.bytes.data(),
                t.values.size() * sizeof(float));
    out.push_back(std::move(t));
  }
}

/// The trained params and buffers of `path`: a params file, or a checkpoint
/// archive (its params, then its buffers).
runner::StatusOr<std::vector<HostTensor>> readTrained(const std::string &path) {
  runner::StatusOr<std::vector<char>> bytes =
      runner::readFileBytes(path, "trained values ");
  if (bytes.failed())
    return bytes.takeStatus();
  llvm::StringRef head(bytes->data(), bytes->size());
  if (head.starts_with("AMPPARAM1"))
    return runner::parseParamsFile(*bytes, path);
  if (!head.starts_with("PK"))
    return runner::Status::error(
        "'" + path +
        "' is neither a params file (amp-run --save-params) nor a checkpoint "
        "(amp-run --save-checkpoint)");
  runner::StatusOr<runner::NamedArrays> arrays = runner::parseNpz(*bytes, path);
  if (arrays.failed())
    return arrays.takeStatus();
  runner::StatusOr<std::vector<HostTensor>> params =
      checkpointArrays(*arrays, runner::Role::Param, path);
  if (params.failed())
    return params;
  runner::StatusOr<std::vector<HostTensor>> buffers =
      checkpointArrays(*arrays, runner::Role::Buffer, path);
  if (buffers.failed())
    return buffers;
  for (HostTensor &b : *buffers)
    params->push_back(std::move(b));
  return params;
}

/// The values of the initializer `use` computes from `arg`, in
/// `shape` (the initializer's), row-major.
std::vector<float> initializerValues(const HostTensor &arg,
                                     const ONNXInitializerUse &use,
                                     llvm::ArrayRef<int64_t> shape) {
  switch (use.kind) {
  case ONNXInitializerUse::Kind::Copy:
    return arg.values;
  case ONNXInitializerUse::Kind::Transpose: {
    const int64_t rows = arg.shape[0], cols = arg.shape[1];
    std::vector<float> out(arg.values.size());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        out[j * rows + i] = arg.values[i * cols + j];
    return out;
  }
  case ONNXInitializerUse::Kind::Broadcast: {
    // Each position of `shape` reads the base at the same index, 0 along
    // the dims where the base has size 1.
    llvm::SmallVector<int64_t> strides = stridesOf(use.baseShape);
    llvm::SmallVector<int64_t> idx(shape.size(), 0);
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    std::vector<float> out;
    out.reserve(count);
    for (int64_t k = 0; k < count; ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        if (use.baseShape[d] != 1)
          offset += idx[d] * strides[d];
      out.push_back(arg.values[offset]);
      advanceIndex(idx, shape);
    }
    return out;
  }
  }
  llvm_unreachable("an initializer use kind");
}

/// Stores `values` as the data of `t` in its element type; an error for an
/// element type the importer does not read as float.
std::string setTensorValues(onnx::TensorProto &t,
                            const std::vector<float> &values) {
  std::string raw;
  auto append = [&](const auto &v) {
    raw.append(reinterpret_cast<const char *>(&v), sizeof(v));
  };
  raw.reserve(values.size() * 4);
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT:
    for (float v : values)
      append(v);
    break;
  case onnx::TensorProto::DOUBLE:
    for (float v : values)
      append(double(v));
    break;
  case onnx::TensorProto::FLOAT16:
    for (float v : values)
      append(amp::runtime::floatToHalfBits(v));
    break;
  case onnx::TensorProto::BFLOAT16:
    for (float v : values)
      append(amp::runtime::floatToBFloat16Bits(v));
    break;
  default:
    return "its element type " + dataTypeName(t.data_type()) +
           " cannot hold trained values";
  }
  t.clear_float_data();
  t.clear_double_data();
  t.clear_int32_data();
  t.set_raw_data(std::move(raw));
  return "";
}

/// Calls `fn` on every tensor of the graph that holds data: the
/// initializers and the nodes' tensor attributes (those loadExternalData
/// reads).
void forEachTensor(onnx::ModelProto &model,
                   llvm::function_ref<void(onnx::TensorProto &)> fn) {
  onnx::GraphProto &graph = *model.mutable_graph();
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    fn(init);
  for (onnx::NodeProto &node : *graph.mutable_node())
    for (onnx::AttributeProto &a : *node.mutable_attribute()) {
      if (a.has_t())
        fn(*a.mutable_t());
      for (onnx::TensorProto &t : *a.mutable_tensors())
        fn(t);
    }
}

bool goesExternal(const onnx::TensorProto &t) {
  return t.has_raw_data() && t.raw_data().size() >= kExternalThreshold;
}

/// Writes the raw data of every tensor of `model` with kExternalThreshold
/// bytes or more to the file `dataPath` and points the tensor at it, as
/// `location` (relative to the model's directory); no file when there is
/// none.
std::string externalize(onnx::ModelProto &model, llvm::StringRef dataPath,
                        const std::string &location) {
  bool any = false;
  forEachTensor(model, [&](onnx::TensorProto &t) { any |= goesExternal(t); });
  if (!any)
    return "";
  std::error_code ec;
  llvm::ToolOutputFile file(dataPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return "cannot write '" + dataPath.str() + "': " + ec.message();
  uint64_t offset = 0;
  forEachTensor(model, [&](onnx::TensorProto &t) {
    if (!goesExternal(t))
      return;
    const std::string &raw = t.raw_data();
    file.os() << raw;
    auto entry = [&](const char *key, const std::string &value) {
      onnx::StringStringEntryProto *e = t.add_external_data();
      e->set_key(key);
      e->set_value(value);
    };
    entry("location", location);
    entry("offset", std::to_string(offset));
    entry("length", std::to_string(raw.size()));
    offset += raw.size();
    t.clear_raw_data();
    t.set_data_location(onnx::TensorProto::EXTERNAL);
  });
  file.os().close();
  if (file.os().has_error())
    return "cannot write '" + dataPath.str() +
           "': " + file.os().error().message();
  file.keep();
  return "";
}

/// ONNXExportOptions::inference on the nodes of `graph`; an error names
/// the node whose dropped output is read.
std::string rewriteForInference(onnx::GraphProto &graph) {
  llvm::StringSet<> read;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &in : node.input())
      read.insert(in);
  for (const onnx::ValueInfoProto &out : graph.output())
    read.insert(out.name());
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    const std::string what =
        "node '" + node.name() + "' (" + node.op_type() + ")";
    if (node.op_type() == "BatchNormalization") {
      // Outputs past the first exist in training mode only (the running
      // statistics, and before opset 14 the saved ones too).
      for (int i = 1; i < node.output_size(); ++i)
        if (!node.output(i).empty() && read.contains(node.output(i)))
          return what + ": its output '" + node.output(i) +
                 "', which only training computes, is read: it cannot run "
                 "for inference";
      while (node.output_size() > 1)
        node.mutable_output()->RemoveLast();
      auto *attrs = node.mutable_attribute();
      for (int i = attrs->size() - 1; i >= 0; --i)
        if (attrs->Get(i).name() == "training_mode")
          attrs->DeleteSubrange(i, 1);
    } else if (node.op_type() == "Dropout" && node.input_size() > 2) {
      // Without training_mode (false) a Dropout passes its input on; its
      // mask is all true.
      while (node.input_size() > 2)
        node.mutable_input()->RemoveLast();
    }
  }
  return "";
}

/// What `--list` says of one initializer written.
void listUse(llvm::raw_ostream &os, const onnx::TensorProto &init,
             const ONNXParam &arg, size_t index, size_t params,
             const ONNXInitializerUse &use) {
  os << init.name() << ": ";
  if (arg.buffer)
    os << "buffer #" << index - params;
  else
    os << "param #" << index;
  os << " (" << arg.name << ")";
  if (use.kind == ONNXInitializerUse::Kind::Transpose)
    os << " transposed";
  if (use.kind == ONNXInitializerUse::Kind::Broadcast)
    os << " " << shapeText(use.baseShape) << " broadcast";
  os << " -> " << shapeText(llvm::to_vector(init.dims())) << " "
     << dataTypeName(init.data_type()) << "\n";
}

} // namespace

LogicalResult amp::exportTrainedONNX(llvm::StringRef modelPath,
                                     const ONNXImportOptions &options,
                                     llvm::StringRef trainedPath,
                                     llvm::StringRef outputPath,
                                     const ONNXExportOptions &exportOptions,
                                     MLIRContext &context,
                                     llvm::raw_ostream *list) {
  auto fail = [&](llvm::StringRef file, const llvm::Twine &message) {
    emitError(FileLineColLoc::get(&context, file, 0, 0)) << message;
    return failure();
  };
  if (options.constants)
    return fail(modelPath, "with --constants the model has no params whose "
                           "trained values could be written");
  if (modelPath == "-" || outputPath == "-")
    return fail(modelPath, "the model and the output must be files, not "
                           "standard input or output");

  // The arguments, and the initializers each gives.
  std::vector<ONNXParam> args;
  if (!importONNXFile(modelPath, options, context, &args))
    return failure();
  // Only their shapes and initializers are needed: the memory goes back
  // before the model is read again.
  for (ONNXParam &a : args)
    std::vector<float>().swap(a.values);
  const size_t params =
      llvm::count_if(args, [](const ONNXParam &a) { return !a.buffer; });

  // The runner's errors name the file.
  runner::StatusOr<std::vector<HostTensor>> trained =
      readTrained(trainedPath.str());
  if (trained.failed()) {
    emitError(UnknownLoc::get(&context)) << trained.getStatus().message();
    return failure();
  }
  const std::string sameOptions =
      " (give the options of the amp-import-onnx command that made the step)";
  if (trained->size() != args.size())
    return fail(trainedPath, "holds " + std::to_string(trained->size()) +
                                 " tensors, but importing '" + modelPath +
                                 "' with these options gives " +
                                 std::to_string(params) + " params and " +
                                 std::to_string(args.size() - params) +
                                 " buffers" + sameOptions);
  for (size_t i = 0; i < args.size(); ++i)
    if ((*trained)[i].shape != args[i].shape)
      return fail(trainedPath, "tensor #" + std::to_string(i) + " has shape " +
                                   shapeText((*trained)[i].shape) + ", but " +
                                   (args[i].buffer ? "buffer '" : "param '") +
                                   args[i].name + "' of the import has shape " +
                                   shapeText(args[i].shape) + sameOptions);

  // The model as read, its external data inside.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError())
    return fail(modelPath, "cannot read '" + modelPath + "': " + ec.message());
  onnx::ModelProto model;
  int64_t opset = 0;
  std::string error = loadModel((*file)->getBuffer(), model, opset);
  bool wasExternal = false;
  if (error.empty())
    forEachTensor(model, [&](onnx::TensorProto &t) {
      wasExternal |= t.data_location() == onnx::TensorProto::EXTERNAL;
    });
  std::string dataDir = options.externalDataDir;
  if (dataDir.empty())
    dataDir = llvm::sys::path::parent_path(modelPath).str();
  if (dataDir.empty())
    dataDir = ".";
  if (error.empty())
    error = loadExternalData(model, dataDir);
  if (!error.empty())
    return fail(modelPath, error);

  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringMap<onnx::TensorProto *> initializers;
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    initializers[init.name()] = &init;
  // A param the importer made of an Identity of an initializer (the
  // TorchScript exporter's copy of an equal parameter, importIdentity)
  // becomes an initializer of its own, the Identity gone.
  llvm::StringMap<int> identities;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (node.op_type() == "Identity" && node.input_size() == 1 &&
        node.output_size() == 1 && initializers.count(node.input(0)))
      identities[node.output(0)] = i;
  }
  llvm::SmallVector<int> replaced;
  llvm::StringSet<> written;
  for (size_t i = 0; i < args.size(); ++i) {
    for (const ONNXInitializerUse &use : args[i].initializers) {
      auto it = initializers.find(use.initializer);
      auto identity = identities.find(use.initializer);
      if (it == initializers.end() && identity != identities.end()) {
        const onnx::TensorProto &source =
            *initializers[graph.node(identity->second).input(0)];
        onnx::TensorProto *own = graph.add_initializer();
        own->set_name(use.initializer);
        own->set_data_type(source.data_type());
        *own->mutable_dims() = source.dims();
        it = initializers.try_emplace(use.initializer, own).first;
        replaced.push_back(identity->second);
      }
      if (it == initializers.end())
        return fail(modelPath,
                    "the import's " +
                        std::string(args[i].buffer ? "buffer '" : "param '") +
                        args[i].name + "' gives '" + use.initializer +
                        "', which is no initializer of the model");
      onnx::TensorProto &init = *it->second;
      if (!written.insert(use.initializer).second)
        return fail(modelPath, "initializer '" + use.initializer +
                                   "' is given by two arguments");
      llvm::SmallVector<int64_t> shape(init.dims().begin(), init.dims().end());
      std::string error =
          setTensorValues(init, initializerValues((*trained)[i], use, shape));
      if (!error.empty())
        return fail(modelPath,
                    "initializer '" + use.initializer + "': " + error);
      if (list)
        listUse(*list, init, args[i], i, params, use);
    }
    // Written: its memory goes back (the model holds its copy).
    std::vector<float>().swap((*trained)[i].values);
  }

  llvm::sort(replaced);
  for (int i : llvm::reverse(replaced))
    graph.mutable_node()->DeleteSubrange(i, 1);

  if (exportOptions.inference) {
    std::string error = rewriteForInference(graph);
    if (!error.empty())
      return fail(modelPath, error);
  }

  // Serialized with its tensors inside, or beside it.
  const size_t inlineSize = model.ByteSizeLong();
  const size_t limit = size_t(std::numeric_limits<int>::max());
  const ONNXExternalData externalData = exportOptions.externalData;
  const bool external = externalData == ONNXExternalData::Always ||
                        (externalData == ONNXExternalData::Auto &&
                         (wasExternal || inlineSize > limit));
  if (!external && inlineSize > limit)
    return fail(outputPath,
                "the model is " + std::to_string(inlineSize) +
                    " bytes with its tensors inside, more than protobuf's 2 "
                    "GiB limit: write them as external data");
  if (external) {
    const std::string location =
        llvm::sys::path::filename(outputPath).str() + ".data";
    llvm::SmallString<256> dataPath(llvm::sys::path::parent_path(outputPath));
    llvm::sys::path::append(dataPath, location);
    std::string error = externalize(model, dataPath, location);
    if (!error.empty())
      return fail(outputPath, error);
  }
  std::vector<char> bytes(model.ByteSizeLong());
  if (bytes.size() > limit ||
      !model.SerializeToArray(bytes.data(), int(bytes.size())))
    return fail(outputPath, "the model does not serialize (" +
                                std::to_string(bytes.size()) + " bytes)");
  runner::Status status = runner::replaceFileBytes(outputPath.str(), bytes);
  if (status.failed())
    return fail(outputPath, status.message());
  return success();
}
