//===- PrecisionReport.cpp - the precision report, from the final IR -----===//
//
// amp-precision-report: runs after amp-insert-casts and writes the JSON
// report of docs/precision.md from the IR as it is: each op's precision
// (`amp.precision`) and rule (`amp.precision_rule`, recorded by
// amp-assign-precision, removed here), the casts and converted constants
// that are really there, and the activation bytes of the final types.
// A module pass: it writes one file for all functions, in one cheap walk.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace amp {
#define GEN_PASS_DEF_PRECISIONREPORT
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

/// Formats a location as the report shows it: `"x"` for loc("x"),
/// `file:line:col` for file locations.
static std::string formatLoc(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  StringRef str(s);
  if (str.consume_front("loc(") && str.consume_back(")"))
    return str.str();
  return s;
}

/// Bytes of the float tensors `op` produces, added to the low-precision or
/// the f32 total.
static void addActivationBytes(Operation *op, uint64_t &lowBytes,
                               uint64_t &f32Bytes) {
  for (Type t : op->getResultTypes()) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    (type.getElementType().isF32() ? f32Bytes : lowBytes) +=
        tensorByteSize(type).value_or(0);
  }
}

/// A constant that amp-insert-casts converted at compile time: a float
/// tensor constant in f16 or bf16.
static bool isConvertedConstant(Operation *op) {
  if (!op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1 ||
      !isFloatTensor(op->getResult(0).getType()))
    return false;
  Type elem =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  return elem.isF16() || elem.isBF16();
}

namespace {
struct PrecisionReportPass
    : amp::impl::PrecisionReportBase<PrecisionReportPass> {
  using PrecisionReportBase::PrecisionReportBase;

  void runOnOperation() override;
};
} // namespace

void PrecisionReportPass::runOnOperation() {
  ModuleOp module = getOperation();
  std::string text;
  llvm::raw_string_ostream stream(text);
  llvm::json::OStream j(stream, /*IndentSize=*/2);
  unsigned numLow = 0, numF32 = 0, casts = 0, constants = 0;
  uint64_t lowBytes = 0, f32Bytes = 0;

  j.objectBegin();
  j.attribute("compute_type", computeType);
  j.attributeBegin("ops");
  j.arrayBegin();
  WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<CastOp>(op))
      ++casts;
    else if (isConvertedConstant(op))
      ++constants;
    // Region ops carry an array, one precision per result: not an op entry.
    if (!op->getAttrOfType<TypeAttr>(AMPDialect::getPrecisionAttrName()))
      return WalkResult::advance();
    std::optional<FloatType> precision = getOpPrecision(op);
    auto rule =
        op->getAttrOfType<StringAttr>(AMPDialect::getPrecisionRuleAttrName());
    if (!precision || !rule) {
      op->emitError() << "amp-precision-report: this op has '"
                      << AMPDialect::getPrecisionAttrName() << "' but no '"
                      << AMPDialect::getPrecisionRuleAttrName()
                      << "'; run amp-assign-precision with record-rules=true "
                         "before the report";
      return WalkResult::interrupt();
    }
    (precision->isF32() ? numF32 : numLow)++;
    j.object([&] {
      j.attribute("name", op->getName().getStringRef());
      j.attribute("loc", formatLoc(op->getLoc()));
      j.attribute("precision", precisionName(*precision));
      j.attribute("rule", rule.getValue());
    });
    addActivationBytes(op, lowBytes, f32Bytes);
    op->removeAttr(AMPDialect::getPrecisionRuleAttrName());
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return signalPassFailure();
  j.arrayEnd();
  j.attributeEnd();
  j.attribute("casts_inserted", casts);
  j.attribute("constants_converted", constants);
  j.attributeObject("op_counts", [&] {
    j.attribute("low_precision", numLow);
    j.attribute("f32", numF32);
  });
  j.attributeObject("activation_bytes", [&] {
    j.attribute("low_precision", static_cast<int64_t>(lowBytes));
    j.attribute("f32", static_cast<int64_t>(f32Bytes));
  });
  j.objectEnd();
  stream << "\n";

  std::error_code ec;
  llvm::raw_fd_ostream out(file, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    emitError(module.getLoc()) << "amp-precision-report: cannot write report '"
                               << file << "': " << ec.message();
    return signalPassFailure();
  }
  out << text;
}
