//===- StepSignature.cpp - describe compiled functions from their IR ------===//
//
// Reads the role, shape, element type and `nn.init` value of every argument
// and result of a function into a FunctionSignature, the plain description
// that the execution half consumes.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace amp::runner;

std::optional<Role> amp::runner::toRunnerRole(amp::nn::Role role) {
  return parseRole(amp::nn::stringifyRole(role));
}

llvm::Expected<std::optional<Role>>
amp::runner::readRole(DictionaryAttr attrs) {
  Attribute attr =
      attrs ? attrs.get(amp::nn::NNDialect::getRoleAttrName()) : Attribute();
  if (!attr)
    return std::nullopt;
  auto role = dyn_cast<amp::nn::RoleAttr>(attr);
  if (!role) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    return llvm::createStringError("nn.role is " + text +
                                   ", not an #nn.role<...> attribute");
  }
  std::optional<Role> runnerRole = toRunnerRole(role.getValue());
  if (!runnerRole)
    return llvm::createStringError(
        "nn.role #nn.role<" + amp::nn::stringifyRole(role.getValue()).str() +
        "> has no runner counterpart");
  return runnerRole;
}

/// `nn.init` as a number (true reads as the i1 value -1, as an integer).
static std::optional<double> readInit(DictionaryAttr attrs) {
  Attribute init =
      attrs ? attrs.get(amp::nn::NNDialect::getInitAttrName()) : Attribute();
  if (!init)
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(init))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(init))
    return static_cast<double>(i.getInt());
  return 0.0; // the verifier admits only numbers and bools
}

static std::optional<ElementType> readElementType(Type type) {
  if (type.isF32())
    return ElementType::F32;
  if (type.isF16())
    return ElementType::F16;
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isInteger(1))
    return ElementType::I1;
  if (type.isInteger(32))
    return ElementType::I32;
  if (type.isInteger(64))
    return ElementType::I64;
  return std::nullopt;
}

static llvm::Expected<TensorDesc> describe(Type type, DictionaryAttr attrs,
                                           const llvm::Twine &where) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return llvm::createStringError(where +
                                   " is not a statically shaped tensor");
  TensorDesc desc;
  desc.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  std::optional<ElementType> elementType =
      readElementType(tensor.getElementType());
  if (!elementType) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << tensor.getElementType();
    return llvm::createStringError(where + " has element type " + text +
                                   "; the runner takes f32, f16, bf16, i1, "
                                   "i32 and i64");
  }
  desc.type = *elementType;
  llvm::Expected<std::optional<Role>> role = readRole(attrs);
  if (!role)
    return llvm::createStringError(where + ": " +
                                   llvm::toString(role.takeError()));
  desc.role = *role;
  desc.init = readInit(attrs);
  return desc;
}

/// Describes every value of `types`, whose attributes `attrs(i)` returns.
template <typename GetAttrs>
static llvm::Error describeAll(TypeRange types, GetAttrs attrs,
                               const std::string &what,
                               std::vector<TensorDesc> &out) {
  for (auto [i, type] : llvm::enumerate(types)) {
    llvm::Expected<TensorDesc> desc =
        describe(type, attrs(i), what + " #" + llvm::Twine(i));
    if (!desc)
      return desc.takeError();
    out.push_back(std::move(*desc));
  }
  return llvm::Error::success();
}

/// The loss that reads `labels` as its labels or targets: for an
/// nn.cross_entropy (or its gradient) its class count, the logits' last
/// dimension, and its ignore_index; for an elementwise loss (or its
/// gradient) its kind.
static void describeLabels(Value labels, TensorDesc &desc) {
  for (Operation *user : labels.getUsers()) {
    if (auto loss = dyn_cast<amp::nn::ElementwiseLossOpInterface>(user);
        loss && loss.getTarget() == labels) {
      desc.loss = amp::nn::stringifyElementwiseLossKind(loss.getLossKind());
      // The runner's spelling of BCE (Signature.h) is the enum's.
      assert(amp::nn::stringifyElementwiseLossKind(
                 amp::nn::ElementwiseLossKind::BceWithLogits) ==
             kBinaryCrossEntropyLoss);
      return;
    }
    Value logits;
    std::optional<int64_t> ignore;
    if (auto ce = dyn_cast<amp::nn::CrossEntropyOp>(user);
        ce && ce.getLabels() == labels)
      logits = ce.getLogits(), ignore = ce.getIgnoreIndex();
    if (auto ceGrad = dyn_cast<amp::nn::CrossEntropyGradOp>(user);
        ceGrad && ceGrad.getLabels() == labels)
      logits = ceGrad.getLogits(), ignore = ceGrad.getIgnoreIndex();
    if (auto type = logits ? dyn_cast<RankedTensorType>(logits.getType())
                           : RankedTensorType();
        type && type.getRank() >= 1) {
      desc.classes = type.getShape().back();
      desc.ignoreIndex = ignore;
      desc.loss = "cross_entropy";
      return;
    }
  }
}

llvm::Expected<FunctionSignature>
amp::runner::describeFunction(func::FuncOp fn) {
  FunctionSignature signature;
  signature.name = fn.getSymName().str();
  std::string prefix = "@" + signature.name;
  if (llvm::Error error = describeAll(
          fn.getArgumentTypes(),
          [&](unsigned i) { return fn.getArgAttrDict(i); },
          prefix + " argument", signature.args))
    return std::move(error);
  if (!fn.isExternal())
    for (auto [desc, arg] : llvm::zip(signature.args, fn.getArguments())) {
      if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
        desc.name = name.getName().str();
      if (desc.role == Role::Label)
        describeLabels(arg, desc);
    }
  if (llvm::Error error = describeAll(
          fn.getResultTypes(),
          [&](unsigned i) { return fn.getResultAttrDict(i); },
          prefix + " result", signature.results))
    return std::move(error);
  return signature;
}
