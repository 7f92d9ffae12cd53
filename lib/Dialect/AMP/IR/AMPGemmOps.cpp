//===- AMPGemmOps.cpp - amp.gemm verification and descriptor layout -------===//
//
// The rules of amp.gemm are those of the runtime's amp_gemm (dtype
// combinations, which epilogue reads or writes a bias or aux), so that every
// verified op lowers to a request the runtime accepts. getLayout() maps the
// tensor types to the descriptor's dimensions, leading dimensions and
// strides.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace amp;

#include "amp/Dialect/AMP/IR/AMPEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Epilogue properties
//===----------------------------------------------------------------------===//

bool GemmOp::hasBiasInput(GemmEpilogue e) {
  return e == GemmEpilogue::bias || e == GemmEpilogue::relu_bias ||
         e == GemmEpilogue::gelu_bias || e == GemmEpilogue::gelu_aux_bias;
}

bool GemmOp::hasAuxInput(GemmEpilogue e) {
  return e == GemmEpilogue::drelu || e == GemmEpilogue::drelu_bgrad ||
         e == GemmEpilogue::dgelu || e == GemmEpilogue::dgelu_bgrad;
}

bool GemmOp::hasAuxOutput(GemmEpilogue e) {
  return e == GemmEpilogue::gelu_aux || e == GemmEpilogue::gelu_aux_bias;
}

bool GemmOp::hasBiasGradOutput(GemmEpilogue e) {
  return e == GemmEpilogue::drelu_bgrad || e == GemmEpilogue::dgelu_bgrad ||
         e == GemmEpilogue::bgrada || e == GemmEpilogue::bgradb;
}

//===----------------------------------------------------------------------===//
// Assembly
//===----------------------------------------------------------------------===//

// A custom directive because the declarative format cannot tell which of two
// optional results a trailing `, T` belongs to; the keyword says it.
ParseResult GemmOp::parseGemmExtraResults(OpAsmParser &parser, Type &auxOut,
                                          Type &biasGrad) {
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    Type *slot = keyword == "aux_out"     ? &auxOut
                 : keyword == "bias_grad" ? &biasGrad
                                          : nullptr;
    if (!slot)
      return parser.emitError(loc, "expected 'aux_out' or 'bias_grad'");
    if (*slot)
      return parser.emitError(loc, "'") << keyword << "' given twice";
    if (parser.parseType(*slot))
      return failure();
  }
  return success();
}

void GemmOp::printGemmExtraResults(OpAsmPrinter &printer, GemmOp, Type auxOut,
                                   Type biasGrad) {
  if (auxOut)
    printer << ", aux_out " << auxOut;
  if (biasGrad)
    printer << ", bias_grad " << biasGrad;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// Formats dims as `2x3x4` (`[]` when empty), as a type would show them.
static std::string fmtDims(ArrayRef<int64_t> dims) {
  if (dims.empty())
    return "[]";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(dims, os, "x");
  return s;
}

/// The leading (batch) dims of a rank >= 2 shape.
static ArrayRef<int64_t> batchDims(ShapedType t) {
  return t.getShape().drop_back(2);
}

/// The number of matrices of batch dims `dims`. Every amp op's tensors have
/// byte sizes that fit int64 (TensorSizesFitInt64, verified first), so the
/// count, the strides and the row counts derived from it fit too.
static int64_t matrixCount(ArrayRef<int64_t> dims) {
  std::optional<int64_t> n = checked::elementCount(dims.data(), dims.size());
  assert(n && "the size trait bounds every tensor of an amp op");
  return *n;
}

/// Numpy broadcast of two batch shapes, or failure.
static FailureOr<SmallVector<int64_t>> broadcastBatch(ArrayRef<int64_t> x,
                                                      ArrayRef<int64_t> y) {
  size_t rank = std::max(x.size(), y.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t dx = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    int64_t dy = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (dx != dy && dx != 1 && dy != 1)
      return failure();
    out[i] = dx == 1 ? dy : dx;
  }
  return out;
}

GemmOp::Layout GemmOp::getLayout() {
  auto aType = getA().getType();
  auto bType = getB().getType();
  ArrayRef<int64_t> as = aType.getShape().take_back(2);
  ArrayRef<int64_t> bs = bType.getShape().take_back(2);
  int64_t m = getTransposeA() ? as[1] : as[0];
  int64_t k = getTransposeA() ? as[0] : as[1];
  int64_t n = getTransposeB() ? bs[0] : bs[1];
  int64_t batches = matrixCount(batchDims(getD().getType()));
  int64_t aBatches = matrixCount(batchDims(aType));
  int64_t bBatches = matrixCount(batchDims(bType));

  Layout l{};
  l.n = n;
  l.k = k;
  // Row pitches of dense row-major storage: the stored last dimension.
  l.lda = as[1];
  l.ldb = bs[1];
  l.ldc = l.ldd = l.ldAux = n;
  l.strideBias = 0; // a bias input is 1-D; bias gradients need one batch
  if (batches > 1 && bBatches == 1 && !getTransposeA()) {
    // a's batches are consecutive M x K row blocks and d's consecutive
    // M x N row blocks, so they are one (batches * M)-row GEMM.
    l.m = batches * m;
    l.batchCount = 1;
    return l;
  }
  l.m = m;
  l.batchCount = batches;
  if (batches > 1) {
    l.strideA = aBatches == 1 ? 0 : as[0] * as[1];
    l.strideB = bBatches == 1 ? 0 : bs[0] * bs[1];
    l.strideC = l.strideD = l.strideAux = m * n;
  }
  return l;
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  auto aType = getA().getType();
  auto bType = getB().getType();
  auto dType = getD().getType();
  if (aType.getRank() < 2 || bType.getRank() < 2)
    return emitOpError("operands a and b must have rank >= 2, got ")
           << aType << " and " << bType;

  Type elem = aType.getElementType();
  Type dElem = dType.getElementType();
  if (bType.getElementType() != elem)
    return emitOpError("a and b must have one element type, got ")
           << elem << " and " << bType.getElementType();
  if (dElem != elem && !dElem.isF32())
    return emitOpError("result element type must be ")
           << elem << (elem.isF32() ? "" : " or 'f32'") << " for " << elem
           << " operands, got " << dElem;

  ArrayRef<int64_t> as = aType.getShape().take_back(2);
  ArrayRef<int64_t> bs = bType.getShape().take_back(2);
  int64_t m = getTransposeA() ? as[1] : as[0];
  int64_t ka = getTransposeA() ? as[0] : as[1];
  int64_t kb = getTransposeB() ? bs[1] : bs[0];
  int64_t n = getTransposeB() ? bs[0] : bs[1];
  if (ka != kb)
    return emitOpError("op(a) is ")
           << m << "x" << ka << " and op(b) is " << kb << "x" << n
           << ": the contraction dimensions differ";

  auto batch = broadcastBatch(batchDims(aType), batchDims(bType));
  if (failed(batch))
    return emitOpError("batch dimensions ")
           << fmtDims(batchDims(aType)) << " and " << fmtDims(batchDims(bType))
           << " do not broadcast";
  SmallVector<int64_t> expected(*batch);
  expected.append({m, n});
  if (dType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must have shape ")
           << fmtDims(expected) << ", got " << fmtDims(dType.getShape());
  if (llvm::is_contained(aType.getShape(), 0) ||
      llvm::is_contained(bType.getShape(), 0))
    return emitOpError("dimensions must be >= 1: the runtime GEMM has no "
                       "empty case");

  int64_t batches = matrixCount(*batch);
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>("a", aType), {"b", bType}}) {
    int64_t v = matrixCount(batchDims(type));
    if (v != 1 && v != batches)
      return emitOpError("operand ")
             << name << " holds " << v << " matrices but the result holds "
             << batches
             << ": with one batch stride per operand, an operand holds one "
                "matrix or one per batch (broadcast it with nn.broadcast_to)";
  }

  GemmEpilogue e = getEpilogue();
  StringRef eName = stringifyGemmEpilogue(e);
  auto vectorType = [&](int64_t len) {
    return RankedTensorType::get({len}, dElem);
  };

  if (hasBiasInput(e) != static_cast<bool>(getBias()))
    return emitOpError("epilogue ")
           << eName << (getBias() ? " takes no bias" : " needs a bias");
  if (getBias() && getBias().getType() != vectorType(n))
    return emitOpError("bias must be ")
           << vectorType(n) << " (length N, the result's element type), got "
           << getBias().getType();

  if (hasAuxInput(e) != static_cast<bool>(getAux()))
    return emitOpError("epilogue ")
           << eName
           << (getAux() ? " takes no aux input" : " needs an aux input");
  if (getAux() && getAux().getType() != dType)
    return emitOpError("aux must have the result type ")
           << dType << ", got " << getAux().getType();

  if (hasAuxOutput(e) != static_cast<bool>(getAuxOut()))
    return emitOpError("epilogue ")
           << eName
           << (getAuxOut() ? " has no aux_out result"
                           : " needs an aux_out result");
  if (getAuxOut() && getAuxOut().getType() != dType)
    return emitOpError("aux_out must have the result type ")
           << dType << ", got " << getAuxOut().getType();

  if (getC() && getC().getType() != dType)
    return emitOpError("c must have the result type ")
           << dType << ", got " << getC().getType();
  float alpha = getAlpha().convertToFloat();
  float beta = getBeta().convertToFloat();
  if (!std::isfinite(alpha) || !std::isfinite(beta))
    return emitOpError("alpha and beta must be finite");
  if (getC() && beta == 0.0f)
    return emitOpError("beta = 0 would ignore c; drop the c operand");
  if (!getC() && beta != 1.0f)
    return emitOpError("beta scales c, but there is no c operand");

  if (hasBiasGradOutput(e) != static_cast<bool>(getBiasGrad()))
    return emitOpError("epilogue ")
           << eName
           << (getBiasGrad() ? " has no bias_grad result"
                             : " needs a bias_grad result");
  if (getBiasGrad()) {
    Layout l = getLayout();
    if (l.batchCount != 1)
      return emitOpError("epilogue ")
             << eName << " needs a single GEMM (batch_count 1), got "
             << l.batchCount << " batches";
    int64_t len = e == GemmEpilogue::bgrada ? l.m : l.n;
    if (getBiasGrad().getType() != vectorType(len))
      return emitOpError("bias_grad must be ")
             << vectorType(len) << " (length "
             << (e == GemmEpilogue::bgrada ? "M" : "N")
             << ", the result's element type), got " << getBiasGrad().getType();
  }
  return success();
}
