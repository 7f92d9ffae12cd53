//===- NodeContext.cpp - what an op importer sees of its node -------------===//

#include "Importer.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Operation.h"

using namespace amp::onnx_import;
using namespace mlir;

llvm::SmallVector<int64_t> amp::onnx_import::shapeOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return llvm::SmallVector<int64_t>(type.getShape());
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

FailureOr<Tensor *> NodeContext::input(unsigned i) {
  if (!hasInput(i)) {
    error() << "input " << i << " is missing";
    return failure();
  }
  Tensor *t = table.lookup(node.input(i));
  if (!t) {
    error() << "input " << i << " ('" << node.input(i)
            << "') is not defined before the node";
    return failure();
  }
  if (t->sequence) {
    error() << "input " << i << " ('" << node.input(i)
            << "') is a sequence, not a tensor";
    return failure();
  }
  return t;
}

FailureOr<const std::vector<Tensor> *> NodeContext::sequenceInput(unsigned i) {
  Tensor *t = hasInput(i) ? table.lookup(node.input(i)) : nullptr;
  if (!t || !t->sequence) {
    error() << "input " << i << " is no sequence";
    return failure();
  }
  return t->sequence.get();
}

FailureOr<Value> NodeContext::anyValue(unsigned i) {
  FailureOr<Tensor *> t = input(i);
  if (failed(t))
    return failure();
  return table.materialize(**t, loc);
}

FailureOr<Value> NodeContext::floatValue(unsigned i) {
  FailureOr<Tensor *> t = input(i);
  if (failed(t))
    return failure();
  if (!(*t)->isFloat()) {
    error() << "input " << i << " ('" << node.input(i) << "') has element type "
            << dataTypeName((*t)->declaredType())
            << "; nn ops take FLOAT tensors here";
    return failure();
  }
  return table.materialize(**t, loc);
}

FailureOr<Value> NodeContext::numericValue(unsigned i) {
  FailureOr<Tensor *> t = input(i);
  if (failed(t))
    return failure();
  const int32_t dtype = (*t)->dtype;
  if (dtype != onnx::TensorProto::FLOAT && dtype != onnx::TensorProto::INT64 &&
      dtype != onnx::TensorProto::INT32) {
    error() << "input " << i << " ('" << node.input(i) << "') has element type "
            << dataTypeName((*t)->declaredType())
            << "; nn ops take FLOAT, INT64 or INT32 tensors here";
    return failure();
  }
  return table.materialize(**t, loc);
}

FailureOr<const Const *>
NodeContext::constInput(unsigned i, llvm::StringRef what, llvm::StringRef why) {
  FailureOr<Tensor *> t = input(i);
  if (failed(t))
    return failure();
  if (!(*t)->constant) {
    auto diag = error() << what << " (input " << i << ", '" << node.input(i)
                        << "') must be known at import time: an initializer, "
                           "a Constant, a folded shape computation or a graph "
                           "input given with --constant-input";
    if ((*t)->graphInput >= 0)
      diag << " (it is graph input #" << (*t)->graphInput << ")";
    if (!why.empty())
      diag << "; " << why;
    return failure();
  }
  return (*t)->constant.get();
}

FailureOr<const Const *> NodeContext::scalarInput(unsigned i,
                                                  llvm::StringRef what) {
  FailureOr<const Const *> c = constInput(i, what);
  if (succeeded(c) && (*c)->numel() != 1)
    return error() << what << " must be a scalar", failure();
  return c;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

const onnx::AttributeProto *
amp::onnx_import::findAttribute(const onnx::NodeProto &node,
                                llvm::StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  return findAttribute(node, name);
}

Value NodeContext::intSplat(Type elementType, llvm::ArrayRef<int64_t> shape,
                            int64_t v) {
  auto type = RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(type, APInt(elementType.getIntOrFloatBitWidth(), v,
                                         /*isSigned=*/true,
                                         /*implicitTrunc=*/true)));
}

NamedAttribute NodeContext::predicate(nn::ComparePredicate p) const {
  return named("predicate", nn::ComparePredicateAttr::get(ctx(), p));
}

NamedAttribute NodeContext::pinnedF32() const {
  return named(amp::AMPDialect::getPrecisionAttrName(),
               TypeAttr::get(builder.getF32Type()));
}

FailureOr<int64_t> NodeContext::intAttr(llvm::StringRef name,
                                        int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::INT) {
    error() << "attribute '" << name << "' must be an INT";
    return failure();
  }
  return a->i();
}

FailureOr<float> NodeContext::floatAttr(llvm::StringRef name,
                                        float dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::FLOAT) {
    error() << "attribute '" << name << "' must be a FLOAT";
    return failure();
  }
  return a->f();
}

FailureOr<std::string> NodeContext::stringAttr(llvm::StringRef name,
                                               llvm::StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (a->type() != onnx::AttributeProto::STRING) {
    error() << "attribute '" << name << "' must be a STRING";
    return failure();
  }
  return a->s();
}

/// The list attribute `a` (of ONNX type `type`, spelled `typeName`) read
/// with `values`: std::nullopt when absent, an error when of another type.
template <typename T, typename Values>
static FailureOr<std::optional<llvm::SmallVector<T>>>
listAttr(const NodeContext &nc, llvm::StringRef name,
         onnx::AttributeProto::AttributeType type, llvm::StringRef typeName,
         Values values) {
  const onnx::AttributeProto *a = nc.attr(name);
  if (!a)
    return std::optional<llvm::SmallVector<T>>();
  if (a->type() != type) {
    nc.error() << "attribute '" << name << "' must be " << typeName;
    return failure();
  }
  const auto &list = values(*a);
  return std::optional<llvm::SmallVector<T>>(
      llvm::SmallVector<T>(list.begin(), list.end()));
}

FailureOr<std::optional<llvm::SmallVector<int64_t>>>
NodeContext::intsAttr(llvm::StringRef name) const {
  return listAttr<int64_t>(
      *this, name, onnx::AttributeProto::INTS, "INTS",
      [](const onnx::AttributeProto &a) -> const auto & { return a.ints(); });
}

FailureOr<std::optional<llvm::SmallVector<float>>>
NodeContext::floatsAttr(llvm::StringRef name) const {
  return listAttr<float>(
      *this, name, onnx::AttributeProto::FLOATS, "FLOATS",
      [](const onnx::AttributeProto &a) -> const auto & { return a.floats(); });
}

FailureOr<std::optional<llvm::SmallVector<std::string>>>
NodeContext::stringsAttr(llvm::StringRef name) const {
  return listAttr<std::string>(
      *this, name, onnx::AttributeProto::STRINGS, "STRINGS", [
      ](const onnx::AttributeProto &a) -> const auto & { return a.strings(); });
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                              llvm::StringRef what) const {
  if (axis < -rank || axis >= rank) {
    error() << what << " " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

LogicalResult NodeContext::setOutput(unsigned i, Value v) {
  if (!hasOutput(i))
    return success();
  auto type = cast<RankedTensorType>(v.getType());
  Tensor t;
  Type elt = type.getElementType();
  if (elt.isF32())
    t.dtype = onnx::TensorProto::FLOAT;
  else if (elt.isInteger(64))
    t.dtype = onnx::TensorProto::INT64;
  else if (elt.isInteger(32))
    t.dtype = onnx::TensorProto::INT32;
  else if (elt.isInteger(1))
    t.dtype = onnx::TensorProto::BOOL;
  else {
    error() << "result " << i << " has an unsupported element type";
    return failure();
  }
  t.liftedFrom = outputLiftedFrom(i, t.dtype);
  if (isLiftedIntType(t.liftedFrom) && leavesTypeRange(node.op_type())) {
    FailureOr<Value> wrapped = wrapToType(v, t.liftedFrom);
    if (failed(wrapped))
      return failure();
    v = *wrapped;
  }
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  t.value = v;
  table.define(node.output(i), std::move(t));
  return success();
}

int32_t NodeContext::outputLiftedFrom(unsigned i, int32_t dtype) const {
  // Indices and sizes are INT64 whatever the input's type.
  llvm::StringRef op = node.op_type();
  if (op == "ArgMax" || op == "ArgMin" || op == "Shape" || op == "Size" ||
      (op == "TopK" && i == 1))
    return onnx::TensorProto::UNDEFINED;
  for (const std::string &name : node.input())
    if (const Tensor *t = name.empty() ? nullptr : table.lookup(name);
        t && t->dtype == dtype)
      return t->liftedFrom;
  return onnx::TensorProto::UNDEFINED;
}

void NodeContext::declareType(unsigned i, int32_t type) {
  if (!hasOutput(i))
    return;
  if (Tensor *t = table.lookup(node.output(i));
      t && t->dtype == importedDataType(type))
    t->liftedFrom = type != t->dtype ? type : onnx::TensorProto::UNDEFINED;
}

bool NodeContext::leavesTypeRange(llvm::StringRef opType) {
  return llvm::is_contained({"Add", "Sub", "Mul", "Div", "Neg", "Abs", "Sum",
                             "CumSum", "ReduceSum", "ReduceSumSquare",
                             "ReduceL1", "ReduceProd", "Pow", "MatMul", "Gemm",
                             "Einsum"},
                            opType);
}

FailureOr<Value> NodeContext::wrapToType(Value v, int32_t type) {
  // The residue modulo 2^bits (nn.mod takes the divisor's sign), moved
  // down by half the range for a signed type. An i32 sum past 2^31 has
  // wrapped already, which keeps its residue.
  const IntegerLayout layout = integerLayout(type);
  const int64_t bits = layout.bits;
  const bool isSigned = layout.isSigned;
  Type elt = getElementTypeOrSelf(v.getType());
  FailureOr<Value> y = v;
  Value half = isSigned ? intScalar(elt, int64_t(1) << (bits - 1)) : Value();
  if (isSigned)
    y = create<nn::AddOp>({*y, half});
  if (succeeded(y))
    y = create<nn::ModOp>({*y, intScalar(elt, int64_t(1) << bits)});
  if (succeeded(y) && isSigned)
    y = create<nn::SubOp>({*y, half});
  return y;
}

LogicalResult NodeContext::reserveFoldedBytes(int64_t bytes) {
  if (!table.addFoldedBytes(bytes))
    return error() << "the constants computed at import time exceed "
                   << (kMaxFoldedBytes >> 20) << " MiB in all (this node "
                   << "adds " << bytes << " bytes)",
           failure();
  return success();
}

LogicalResult NodeContext::setOutput(unsigned i, Const c) {
  if (!hasOutput(i))
    return success();
  if (failed(reserveFoldedBytes(int64_t(c.f.size() * sizeof(float)) +
                                int64_t(c.i.size() * sizeof(int64_t)))))
    return failure();
  Tensor t;
  t.dtype = c.dtype;
  t.liftedFrom = outputLiftedFrom(i, t.dtype);
  if (isLiftedIntType(t.liftedFrom) && leavesTypeRange(node.op_type()))
    for (int64_t &v : c.i)
      v = wrapToDataType(v, t.liftedFrom);
  t.shape = c.shape;
  t.constant = std::make_shared<const Const>(std::move(c));
  table.define(node.output(i), std::move(t));
  return success();
}

void NodeContext::warnOneElementWeight(unsigned i, llvm::StringRef what) {
  Tensor *t = hasInput(i) ? table.lookup(node.input(i)) : nullptr;
  if (!t || options.constants || !t->initializer || !t->isFloat() ||
      !t->constant || t->value || t->parameter ||
      t->derived != Tensor::Derived::None || t->constant->numel() != 1)
    return;
  mlir::emitWarning(loc) << "node '" << displayName << "' (" << node.op_type()
                         << "): its " << what << " '" << t->name
                         << "' is an initializer of one element, which "
                            "imports as a constant of the model; if it is a "
                            "weight (nn.PReLU()'s single slope), --param "
                         << t->name << " makes it train";
}

LogicalResult NodeContext::setOutput(unsigned i, const Tensor &t) {
  if (!hasOutput(i))
    return success();
  Tensor copy = t;
  // The copy is a new ONNX value: it is no initializer of its own (its
  // value, when materialized, is the original's).
  if (copy.initializer && copy.isFloat() && !copy.value) {
    Tensor *original = table.lookup(t.name);
    if (original)
      copy.value = table.materialize(*original, loc);
  }
  copy.initializer = false;
  table.define(node.output(i), std::move(copy));
  return success();
}

//===----------------------------------------------------------------------===//
// Creating ops
//===----------------------------------------------------------------------===//

/// Inserts `op` and verifies it; an invalid op is erased and is an error.
static FailureOr<ValueRange> insertVerified(OpBuilder &builder, Operation *op) {
  builder.insert(op);
  if (failed(mlir::verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    return failure();
  }
  return ValueRange(op->getResults());
}

FailureOr<ValueRange> NodeContext::create(llvm::StringRef opName,
                                          ValueRange operands,
                                          llvm::ArrayRef<NamedAttribute> attrs,
                                          unsigned numResults) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  // Placeholder result types, replaced by the inferred ones below (an op
  // may have no operands: an nn.concat of nothing, which inference
  // rejects).
  state.addTypes(llvm::SmallVector<Type>(numResults, NoneType::get(ctx())));
  Operation *op = Operation::create(state);
  auto iface = dyn_cast<InferTypeOpInterface>(op);
  assert(iface && "create<> is for ops that infer their result types");
  llvm::SmallVector<Type> types;
  if (failed(iface.inferReturnTypes(
          ctx(), loc, op->getOperands(), op->getRawDictionaryAttrs(),
          op->getPropertiesStorage(), op->getRegions(), types)) ||
      types.size() != numResults) {
    op->destroy();
    if (types.empty())
      error() << "'" << opName << "' cannot be built from these operands";
    return failure();
  }
  for (unsigned i = 0; i < numResults; ++i)
    op->getResult(i).setType(types[i]);
  return insertVerified(builder, op);
}

FailureOr<ValueRange>
NodeContext::createTyped(llvm::StringRef opName, TypeRange resultTypes,
                         ValueRange operands,
                         llvm::ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(resultTypes);
  return insertVerified(builder, Operation::create(state));
}

Value NodeContext::splat(llvm::ArrayRef<int64_t> shape, float value) {
  auto type = RankedTensorType::get(shape, builder.getF32Type());
  return arith::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, value));
}

Value NodeContext::constant(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<float> values) {
  auto type = RankedTensorType::get(shape, builder.getF32Type());
  return arith::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, values));
}

Value NodeContext::constant(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, builder.getI64Type());
  return arith::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, values));
}

FailureOr<Value> NodeContext::convert(Value v, Type elt) {
  return createTyped<nn::ConvertOp>(
      cast<RankedTensorType>(v.getType()).clone(elt), {v});
}

FailureOr<Value> NodeContext::reshape(Value v, llvm::ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  FailureOr<ValueRange> r = createTyped(
      "nn.reshape",
      TypeRange{RankedTensorType::get(shape, type.getElementType())},
      ValueRange{v}, {});
  if (failed(r))
    return failure();
  return (*r)[0];
}

FailureOr<Value> NodeContext::slice(Value v, llvm::ArrayRef<int64_t> offsets,
                                    llvm::ArrayRef<int64_t> sizes,
                                    llvm::ArrayRef<int64_t> strides) {
  auto type = cast<RankedTensorType>(v.getType());
  // All of v in its order (a negative stride over all of it reverses it).
  const bool unitStrides =
      llvm::all_of(strides, [](int64_t s) { return s == 1; });
  if (type.getShape() == sizes && unitStrides)
    return v;
  llvm::SmallVector<NamedAttribute, 2> attrs = {
      named("offsets", i64Array(offsets))};
  if (!unitStrides)
    attrs.push_back(named("strides", i64Array(strides)));
  FailureOr<ValueRange> r = createTyped(
      "nn.slice", TypeRange{type.clone(sizes)}, ValueRange{v}, attrs);
  if (failed(r))
    return failure();
  return (*r)[0];
}
