//===- Signature.cpp - element types and tensor descriptions --------------===//

#include "amp/Runner/Signature.h"

#include "amp_runtime/checked_size.h"

#include <iterator>

using namespace amp;
using namespace amp::runner;

namespace {
struct ElementTypeInfo {
  ElementType type;
  const char *name;
  int64_t size;
};
constexpr ElementTypeInfo kElementTypes[] = {
    {ElementType::F32, "f32", 4},   {ElementType::F16, "f16", 2},
    {ElementType::BF16, "bf16", 2}, {ElementType::I1, "i1", 1},
    {ElementType::I32, "i32", 4},   {ElementType::I64, "i64", 8}};

constexpr bool tableFollowsEnum() {
  for (int i = 0; i < static_cast<int>(std::size(kElementTypes)); ++i)
    if (static_cast<int>(kElementTypes[i].type) != i)
      return false;
  return true;
}
static_assert(tableFollowsEnum(), "kElementTypes is indexed by ElementType");

const ElementTypeInfo &info(ElementType type) {
  return kElementTypes[static_cast<int>(type)];
}
} // namespace

const char *amp::runner::elementTypeName(ElementType type) {
  return info(type).name;
}

int64_t amp::runner::elementSize(ElementType type) { return info(type).size; }

std::optional<ElementType>
amp::runner::parseElementType(std::string_view name) {
  for (const ElementTypeInfo &i : kElementTypes)
    if (name == i.name)
      return i.type;
  return std::nullopt;
}

bool amp::runner::isInteger(ElementType type) {
  return type == ElementType::I1 || type == ElementType::I32 ||
         type == ElementType::I64;
}

int64_t TensorDesc::numElements() const {
  return checked::elementCount(shape.data(), shape.size()).value_or(-1);
}

int64_t TensorDesc::bytes() const {
  return checked::byteSize(shape.data(), shape.size(), elementSize(type))
      .value_or(-1);
}

std::string amp::runner::describeType(const TensorDesc &desc) {
  std::string text = "[";
  for (size_t i = 0; i < desc.shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(desc.shape[i]);
  return text + "] " + elementTypeName(desc.type);
}

std::string amp::runner::withName(std::string what, const TensorDesc &desc) {
  return desc.name.empty() ? what : what + " (" + desc.name + ")";
}

Status amp::runner::checkSignature(const FunctionSignature &fn) {
  for (const auto &[what, tensors] :
       {std::pair("argument", &fn.args), std::pair("result", &fn.results)})
    for (size_t i = 0; i < tensors->size(); ++i)
      if ((*tensors)[i].bytes() < 0)
        return Status::error(std::string(what) + " #" + std::to_string(i) +
                             " of @" + fn.name + " is " +
                             describeType((*tensors)[i]) +
                             ", whose size in bytes does not fit in int64");
  std::vector<bool> holds(fn.args.size());
  for (size_t j = 0; j < fn.results.size(); ++j) {
    std::optional<int> a = fn.results[j].inArgument;
    if (!a)
      continue;
    std::string result = "result #" + std::to_string(j) + " of @" + fn.name;
    if (*a < 0 || *a >= static_cast<int>(fn.args.size()))
      return Status::error(result + " is said to be in argument #" +
                           std::to_string(*a) + ", which it does not have");
    const TensorDesc &arg = fn.args[*a];
    if (arg.shape != fn.results[j].shape || arg.type != fn.results[j].type)
      return Status::error(result + " is " + describeType(fn.results[j]) +
                           " but is said to be in argument #" +
                           std::to_string(*a) + ", " + describeType(arg));
    if (holds[*a])
      return Status::error("argument #" + std::to_string(*a) + " of @" +
                           fn.name + " is said to hold two results");
    holds[*a] = true;
  }
  return Status::success();
}
