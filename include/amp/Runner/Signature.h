//===- Signature.h - a compiled function as the runner sees it --*- C++ -*-===//
//
// The compile half describes every function it compiles with a
// FunctionSignature (role, shape, element type and `nn.init` of every
// argument and result, read from the IR before the lowering); the execution
// half needs nothing else to bind, initialize and call it. An ahead-of-time
// compiled step carries the same description as data.
//
// The lowered calling convention (StepFn): one array of buffer pointers, the
// arguments in order and then the caller-allocated results; the function
// returns an amp_status_t, and on failure the module's global
// `const char *__amp_error_site` names the failing op's location.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_SIGNATURE_H
#define AMP_RUNNER_SIGNATURE_H

#include "amp/Runner/Role.h"
#include "amp/Runner/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amp::runner {

/// A lowered function: `buffers` holds the arguments, then the results.
using StepFn = int32_t (*)(void **buffers);

/// Element types at a step's boundary. I1 (found_inf) is stored as one byte.
enum class ElementType { F32, F16, BF16, I1, I32, I64 };

/// "f32", "f16", "bf16", "i1", "i32", "i64".
const char *elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(std::string_view name);
/// Bytes per element in a runtime buffer.
int64_t elementSize(ElementType type);
bool isInteger(ElementType type);

/// TensorDesc::loss of targets that nn.bce_with_logits_loss reads:
/// probabilities, scored as binary decisions.
inline constexpr const char *kBinaryCrossEntropyLoss = "bce_with_logits";

/// One argument or result.
struct TensorDesc {
  std::optional<Role> role;
  std::vector<int64_t> shape;
  ElementType type = ElementType::F32;
  /// `nn.init`: the value the runner initializes the argument with.
  std::optional<double> init;
  /// Labels: the class count of the nn.cross_entropy that reads them (the
  /// logits' last dimension), when the compile half found one.
  std::optional<int64_t> classes;
  /// Labels: that nn.cross_entropy's ignore_index, a label that counts as
  /// padding (no class), when it has one.
  std::optional<int64_t> ignoreIndex;
  /// Labels: the loss that reads them, "cross_entropy" or an elementwise
  /// loss's kind ("mse", "l1", "huber", kBinaryCrossEntropyLoss), when the
  /// compile half found one; else empty. The evaluation scores by it.
  std::string loss;
  /// Results: the argument whose buffer holds this result after the call,
  /// when the function computes it there (the argument was donated to it,
  /// amp.aliasing_output). Its slot in the buffer array is not used.
  std::optional<int> inArgument;
  /// Arguments: the name in the source (`%w1`) when the module was parsed
  /// with amp::parseFileNamingArguments, else empty. Messages use it.
  std::string name;

  /// The element count and the size in a runtime buffer (checked
  /// arithmetic, amp_runtime/checked_size.h): -1 when int64 cannot count
  /// them, which checkSignature rejects before anything is allocated.
  int64_t numElements() const;
  int64_t bytes() const;
};

struct FunctionSignature {
  std::string name;
  std::vector<TensorDesc> args;
  std::vector<TensorDesc> results;
};

/// "[64, 128] f32", for messages.
std::string describeType(const TensorDesc &desc);
/// `what` followed by the tensor's source name in parentheses, when it has
/// one: "param #1 (%b1)", "input #0 (ids)".
std::string withName(std::string what, const TensorDesc &desc);

/// Fails, naming the argument or result, when one of `fn`'s tensors has a
/// negative dim or more bytes than int64 can count, or a result's
/// inArgument is not an argument of its type, or the same one as another's.
Status checkSignature(const FunctionSignature &fn);

} // namespace amp::runner

#endif // AMP_RUNNER_SIGNATURE_H
