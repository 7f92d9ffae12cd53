//===- ModelLoader.cpp - parse and validate an ONNX ModelProto ------------===//
//
// The ModelProto is parsed with the protobuf classes of Debian's libonnx-dev
// (no hand-written parsing). What the rest of the importer relies on is
// checked here: a graph, and the opset of the default domain (any version;
// OpsetUpgrade.cpp brings one older than kMinOpset up to it, and a newer
// opset than ONNX 1.12 knows is accepted, each op importer checks the
// semantics it implements).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <iterator>
#include <limits>

using namespace amp::onnx_import;

std::string amp::onnx_import::loadModel(llvm::StringRef bytes,
                                        onnx::ModelProto &model,
                                        int64_t &opset) {
  if (bytes.empty())
    return "the file is empty, not an ONNX model";
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    return "the file is larger than 2 GiB, which protobuf cannot parse "
           "(save the model with its weights as external data)";
  if (!model.ParseFromArray(bytes.data(), int(bytes.size())))
    return "not a valid ONNX model: the protobuf message does not parse "
           "(corrupt or truncated file?)";
  if (!model.has_graph())
    return "not a valid ONNX model: it has no graph";
  if (model.ir_version() <= 0)
    return "not a valid ONNX model: ir_version is missing";

  opset = -1;
  for (const onnx::OperatorSetIdProto &id : model.opset_import())
    if (id.domain().empty() || id.domain() == "ai.onnx")
      opset = id.version();
  if (opset < 0)
    return "the model imports no opset of the default ONNX domain";
  if (opset < 1)
    return "the model imports opset " + std::to_string(opset) +
           " of the default domain, which does not exist (opsets start at "
           "1)";
  return "";
}

std::string amp::onnx_import::dataTypeName(int32_t dtype) {
  if (onnx::TensorProto_DataType_IsValid(dtype))
    return onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(dtype));
  // The types of onnx.proto newer than Debian's ONNX 1.12 knows.
  static constexpr const char *kNewerTypes[] = {
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
      "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2"};
  constexpr int32_t kFirstNewer = 17;
  if (dtype >= kFirstNewer &&
      dtype < kFirstNewer + int32_t(std::size(kNewerTypes)))
    return kNewerTypes[dtype - kFirstNewer];
  return "type " + std::to_string(dtype);
}
