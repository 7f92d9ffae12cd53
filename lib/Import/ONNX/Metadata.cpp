//===- Metadata.cpp - metadata_props of newer ONNX messages ---------------===//
//
// The torch.export-based exporter records what PyTorch knew in the
// metadata_props of the graph (field 16: the exported program's
// signature), of value infos (field 4: what an initializer was folded
// from, its module-value kind) and of nodes (field 9: the FX node each was
// translated from). These fields are newer than Debian's libonnx-dev; they
// are read from the message's unknown fields when the generated class does
// not know them.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <google/protobuf/unknown_field_set.h>

using namespace amp::onnx_import;

std::vector<onnx::StringStringEntryProto>
amp::onnx_import::metadataEntries(const google::protobuf::Message &message,
                                  int fieldNumber) {
  std::vector<onnx::StringStringEntryProto> entries;
  const google::protobuf::Reflection *reflection = message.GetReflection();
  if (const google::protobuf::FieldDescriptor *field =
          message.GetDescriptor()->FindFieldByNumber(fieldNumber)) {
    if (field->is_repeated() &&
        field->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE) {
      for (int k = 0, n = reflection->FieldSize(message, field); k < n; ++k) {
        onnx::StringStringEntryProto e;
        if (e.ParseFromString(reflection->GetRepeatedMessage(message, field, k)
                                  .SerializeAsString()))
          entries.push_back(std::move(e));
      }
    }
    return entries;
  }
  const google::protobuf::UnknownFieldSet &unknown =
      reflection->GetUnknownFields(message);
  for (int k = 0; k < unknown.field_count(); ++k) {
    const google::protobuf::UnknownField &f = unknown.field(k);
    if (f.number() != fieldNumber ||
        f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      continue;
    onnx::StringStringEntryProto e;
    if (e.ParseFromString(f.length_delimited()))
      entries.push_back(std::move(e));
  }
  return entries;
}

std::optional<std::string>
amp::onnx_import::metadataValue(const google::protobuf::Message &message,
                                int fieldNumber, llvm::StringRef key) {
  for (const onnx::StringStringEntryProto &e :
       metadataEntries(message, fieldNumber))
    if (e.key() == key)
      return e.value();
  return std::nullopt;
}
