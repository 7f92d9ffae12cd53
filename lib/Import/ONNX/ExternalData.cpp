//===- ExternalData.cpp - tensors stored outside the model file -----------===//
//
// ONNX's external data (onnx/docs/ExternalData.md): a TensorProto with
// data_location = EXTERNAL keeps its bytes in another file, named by the
// `location` entry of external_data relative to the model's directory, at
// `offset` for `length` bytes (both optional, decimal strings). PyTorch's
// torch.onnx.export writes its weights this way (model.onnx.data), and a
// model over protobuf's 2 GiB limit can only be stored this way.
//
// Before the graph is imported, every such tensor of the graph (initializers
// and tensor attributes of nodes) gets its bytes as raw_data, as onnx.load
// does, so that the rest of the importer reads one kind of tensor. Each
// data file is mapped once. A location must stay inside the model's
// directory: absolute paths, `..` components and symbolic links that
// resolve outside it are errors, as are a missing file, a range past its
// end, and an unknown key. `checksum` is accepted and not verified (the
// format does not say over which bytes it is taken).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace amp::onnx_import;

namespace {

/// The data files of one model, each mapped once.
class DataFiles {
public:
  explicit DataFiles(llvm::StringRef dir) : dir(dir) {}

  /// The bytes of `tensor`'s external data, or an error message.
  llvm::Expected<llvm::StringRef> bytesOf(const onnx::TensorProto &tensor);

private:
  llvm::Expected<const llvm::MemoryBuffer *> open(llvm::StringRef location);

  std::string dir;
  std::string realDir;
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> files;
};

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

/// A non-negative decimal integer of external_data.
llvm::Expected<uint64_t> parseSize(llvm::StringRef key, llvm::StringRef value) {
  uint64_t n;
  if (value.getAsInteger(10, n))
    return fail("its external data " + key + " '" + value +
                "' is not a non-negative integer");
  return n;
}

} // namespace

llvm::Expected<const llvm::MemoryBuffer *>
DataFiles::open(llvm::StringRef location) {
  auto found = files.find(location);
  if (found != files.end())
    return found->second.get();
  if (location.empty())
    return fail("its external data has an empty location");
  if (llvm::sys::path::is_absolute(location) ||
      llvm::sys::path::is_absolute(location, llvm::sys::path::Style::windows))
    return fail("its external data location '" + location +
                "' is an absolute path; it must be relative to the model's "
                "directory");
  for (llvm::StringRef part : llvm::make_range(llvm::sys::path::begin(location),
                                               llvm::sys::path::end(location)))
    if (part == "..")
      return fail("its external data location '" + location +
                  "' leaves the model's directory ('..')");
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, location);
  // A symbolic link may still lead outside: compare the resolved paths.
  llvm::SmallString<256> realPath;
  if (std::error_code ec = llvm::sys::fs::real_path(path, realPath))
    return fail("cannot read its external data '" + path +
                "': " + ec.message());
  if (realDir.empty()) {
    llvm::SmallString<256> resolved;
    if (std::error_code ec = llvm::sys::fs::real_path(dir, resolved))
      return fail("cannot resolve the model's directory '" + dir +
                  "': " + ec.message());
    realDir = resolved.str().str();
  }
  llvm::StringRef inside(realPath);
  const bool below = inside.starts_with(realDir) &&
                     inside.size() > realDir.size() &&
                     (llvm::sys::path::is_separator(realDir.back()) ||
                      llvm::sys::path::is_separator(inside[realDir.size()]));
  if (!below)
    return fail("its external data location '" + location +
                "' resolves outside the model's directory");
  if (!llvm::sys::fs::is_regular_file(realPath))
    return fail("its external data '" + path + "' is not a regular file");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(realPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError())
    return fail("cannot read its external data '" + path +
                "': " + ec.message());
  const llvm::MemoryBuffer *buffer = file->get();
  files[location] = std::move(*file);
  return buffer;
}

llvm::Expected<llvm::StringRef>
DataFiles::bytesOf(const onnx::TensorProto &tensor) {
  if (tensor.has_raw_data())
    return fail("it has both raw_data and external data");
  std::optional<llvm::StringRef> location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    llvm::StringRef key = entry.key(), value = entry.value();
    if (key == "location") {
      location = value;
    } else if (key == "offset" || key == "length") {
      llvm::Expected<uint64_t> n = parseSize(key, value);
      if (!n)
        return n.takeError();
      if (key == "offset")
        offset = *n;
      else
        length = *n;
    } else if (key != "checksum") {
      return fail("its external data has the unknown key '" + key + "'");
    }
  }
  if (!location)
    return fail("its external data has no location");
  llvm::Expected<const llvm::MemoryBuffer *> file = open(*location);
  if (!file)
    return file.takeError();
  uint64_t size = (*file)->getBufferSize();
  if (offset > size || (length && *length > size - offset))
    return fail("its external data (offset " + llvm::Twine(offset) +
                ", length " +
                (length ? llvm::Twine(*length) : llvm::Twine("to the end")) +
                ") runs past the end of '" + *location + "' (" +
                llvm::Twine(size) + " bytes)");
  return (*file)->getBuffer().substr(offset, length ? *length : size - offset);
}

/// Replaces the external data of `tensor` by raw_data; `what` names it in
/// errors.
static std::string internalize(onnx::TensorProto &tensor, DataFiles *files,
                               const std::string &what) {
  if (tensor.data_location() != onnx::TensorProto::EXTERNAL) {
    if (tensor.external_data_size() > 0)
      return what + ": it has external_data entries but its data_location "
                    "is not EXTERNAL";
    return "";
  }
  if (!files)
    return what + ": its data is stored externally, and the directory that "
                  "holds it is unknown (the model was not read from a file; "
                  "give the directory with --external-data-dir)";
  llvm::Expected<llvm::StringRef> bytes = files->bytesOf(tensor);
  if (!bytes)
    return what + ": " + llvm::toString(bytes.takeError());
  tensor.set_raw_data(bytes->data(), bytes->size());
  tensor.clear_external_data();
  tensor.set_data_location(onnx::TensorProto::DEFAULT);
  return "";
}

std::string amp::onnx_import::loadExternalData(onnx::ModelProto &model,
                                               llvm::StringRef modelDir) {
  std::optional<DataFiles> files;
  if (!modelDir.empty())
    files.emplace(modelDir);
  DataFiles *data = files ? &*files : nullptr;
  onnx::GraphProto &graph = *model.mutable_graph();
  for (onnx::TensorProto &init : *graph.mutable_initializer()) {
    std::string error =
        internalize(init, data, "initializer '" + init.name() + "'");
    if (!error.empty())
      return error;
  }
  for (onnx::NodeProto &node : *graph.mutable_node())
    for (onnx::AttributeProto &a : *node.mutable_attribute()) {
      std::string what = "node '" + node.name() + "' (" + node.op_type() +
                         "): attribute '" + a.name() + "'";
      std::string error;
      if (a.has_t())
        error = internalize(*a.mutable_t(), data, what);
      for (onnx::TensorProto &t : *a.mutable_tensors())
        if (error.empty())
          error = internalize(t, data, what);
      if (!error.empty())
        return error;
    }
  return "";
}
