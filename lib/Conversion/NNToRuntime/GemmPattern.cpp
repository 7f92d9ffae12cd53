//===- GemmPattern.cpp - amp.gemm to one amp_gemm call --------------------===//
//
// Fills an amp_gemm_desc_t on the stack and calls amp_gemm. The descriptor's
// layout is the header's: each field is stored at its offsetof() with the
// type of its declaration, so nothing here restates the struct.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "amp_runtime/gemm.h"

#include <cstddef>
#include <type_traits>

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

// amp.gemm's epilogue enum passes through as the runtime's.
#define AMP_CHECK_EPILOGUE(ODS, C)                                             \
  static_assert(static_cast<int>(GemmEpilogue::ODS) == AMP_GEMM_EPILOGUE_##C,  \
                "amp.gemm epilogue " #ODS " differs from the runtime's");
AMP_CHECK_EPILOGUE(none, NONE)
AMP_CHECK_EPILOGUE(bias, BIAS)
AMP_CHECK_EPILOGUE(relu, RELU)
AMP_CHECK_EPILOGUE(relu_bias, RELU_BIAS)
AMP_CHECK_EPILOGUE(gelu, GELU)
AMP_CHECK_EPILOGUE(gelu_bias, GELU_BIAS)
AMP_CHECK_EPILOGUE(gelu_aux, GELU_AUX)
AMP_CHECK_EPILOGUE(gelu_aux_bias, GELU_AUX_BIAS)
AMP_CHECK_EPILOGUE(drelu, DRELU)
AMP_CHECK_EPILOGUE(drelu_bgrad, DRELU_BGRAD)
AMP_CHECK_EPILOGUE(dgelu, DGELU)
AMP_CHECK_EPILOGUE(dgelu_bgrad, DGELU_BGRAD)
AMP_CHECK_EPILOGUE(bgrada, BGRADA)
AMP_CHECK_EPILOGUE(bgradb, BGRADB)
#undef AMP_CHECK_EPILOGUE
static_assert(getMaxEnumValForGemmEpilogue() + 1 == AMP_GEMM_NUM_EPILOGUES,
              "amp.gemm and the runtime have different epilogue counts");

namespace {

/// Stores fields of one amp_gemm_desc_t on the stack.
class GemmDescriptor {
public:
  explicit GemmDescriptor(RuntimeBuilder &rb) : rb(rb) {
    OpBuilder &b = rb.builder();
    auto bytesTy = LLVM::LLVMArrayType::get(b.getI8Type(),
                                            sizeof(amp_gemm_desc_t));
    slot = LLVM::AllocaOp::create(b, rb.location(),
                                  LLVM::LLVMPointerType::get(b.getContext()),
                                  bytesTy, rb.i64(1), alignof(amp_gemm_desc_t));
    // Unused fields are zero, as after amp_gemm_desc_init().
    LLVM::StoreOp::create(b, rb.location(),
                          LLVM::ZeroOp::create(b, rb.location(), bytesTy),
                          slot);
  }

  /// Stores `value` (whose LLVM type must be that of the C field) at
  /// `offset`.
  template <typename Field>
  void set(size_t offset, Value value) {
    static_assert(std::is_pointer_v<Field> || std::is_integral_v<Field> ||
                      std::is_enum_v<Field> || std::is_floating_point_v<Field>,
                  "a descriptor field the lowering cannot store");
    assert(value.getType().isIntOrFloat() ==
               (std::is_integral_v<Field> || std::is_enum_v<Field> ||
                std::is_floating_point_v<Field>) &&
           "descriptor field stored with the wrong kind of type");
    assert((!value.getType().isIntOrFloat() ||
            value.getType().getIntOrFloatBitWidth() == 8 * sizeof(Field)) &&
           "descriptor field stored with the wrong width");
    OpBuilder &b = rb.builder();
    Value addr = LLVM::GEPOp::create(
        b, rb.location(), LLVM::LLVMPointerType::get(b.getContext()),
        b.getI8Type(), slot,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    LLVM::StoreOp::create(b, rb.location(), value, addr);
  }

  Value pointer() const { return slot; }

private:
  RuntimeBuilder &rb;
  Value slot;
};

#define AMP_SET_FIELD(DESC, FIELD, VALUE)                                      \
  (DESC).set<decltype(amp_gemm_desc_t::FIELD)>(                                \
      offsetof(amp_gemm_desc_t, FIELD), VALUE)

struct GemmLowering : RuntimeOpPattern<GemmOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(GemmOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    GemmOp::Layout l = op.getLayout();
    Value d = results[0];
    Value auxOut = op.getAuxOut() ? results[1] : Value();
    Value biasGrad = op.getBiasGrad() ? results.back() : Value();
    Value aux = adaptor.getAux() ? adaptor.getAux()
                : auxOut         ? auxOut
                                 : rb.null();
    Value bias = adaptor.getBias() ? adaptor.getBias()
                 : biasGrad        ? biasGrad
                                   : rb.null();
    Value c = adaptor.getC() ? adaptor.getC() : rb.null();

    GemmDescriptor desc(rb);
    AMP_SET_FIELD(desc, a, adaptor.getA());
    AMP_SET_FIELD(desc, b, adaptor.getB());
    AMP_SET_FIELD(desc, c, c);
    AMP_SET_FIELD(desc, d, d);
    AMP_SET_FIELD(desc, bias, bias);
    AMP_SET_FIELD(desc, aux, aux);
    AMP_SET_FIELD(desc, m, rb.i64(l.m));
    AMP_SET_FIELD(desc, n, rb.i64(l.n));
    AMP_SET_FIELD(desc, k, rb.i64(l.k));
    AMP_SET_FIELD(desc, batch_count, rb.i64(l.batchCount));
    AMP_SET_FIELD(desc, lda, rb.i64(l.lda));
    AMP_SET_FIELD(desc, ldb, rb.i64(l.ldb));
    AMP_SET_FIELD(desc, ldc, rb.i64(l.ldc));
    AMP_SET_FIELD(desc, ldd, rb.i64(l.ldd));
    AMP_SET_FIELD(desc, ld_aux, rb.i64(l.ldAux));
    AMP_SET_FIELD(desc, stride_a, rb.i64(l.strideA));
    AMP_SET_FIELD(desc, stride_b, rb.i64(l.strideB));
    AMP_SET_FIELD(desc, stride_c, rb.i64(l.strideC));
    AMP_SET_FIELD(desc, stride_d, rb.i64(l.strideD));
    AMP_SET_FIELD(desc, stride_aux, rb.i64(l.strideAux));
    AMP_SET_FIELD(desc, stride_bias, rb.i64(l.strideBias));
    AMP_SET_FIELD(desc, alpha, rb.f32(op.getAlpha().convertToDouble()));
    AMP_SET_FIELD(desc, beta,
                  rb.f32(op.getC() ? op.getBeta().convertToDouble() : 0.0));
    AMP_SET_FIELD(desc, trans_a, rb.i32(op.getTransposeA() ? 1 : 0));
    AMP_SET_FIELD(desc, trans_b, rb.i32(op.getTransposeB() ? 1 : 0));
    AMP_SET_FIELD(desc, a_dtype, rb.dtype(op.getA().getType()));
    AMP_SET_FIELD(desc, b_dtype, rb.dtype(op.getB().getType()));
    AMP_SET_FIELD(desc, d_dtype, rb.dtype(op.getD().getType()));
    AMP_SET_FIELD(desc, epilogue,
                  rb.i32(static_cast<amp_gemm_epilogue_t>(op.getEpilogue())));
    rb.call(RuntimeFn::amp_gemm, {desc.pointer(), rb.stream()});
  }
};

#undef AMP_SET_FIELD

} // namespace

void amp::populateGemmToRuntimePatterns(RewritePatternSet &patterns,
                                        const TypeConverter &converter) {
  patterns.add<GemmLowering>(converter, patterns.getContext());
}
