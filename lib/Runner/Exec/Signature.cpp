//===- Signature.cpp - element types and tensor descriptions --------------===//

#include "amp/Runner/Signature.h"

#include <iterator>

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
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string amp::runner::describeType(const TensorDesc &desc) {
  std::string text = "[";
  for (size_t i = 0; i < desc.shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(desc.shape[i]);
  return text + "] " + elementTypeName(desc.type);
}
