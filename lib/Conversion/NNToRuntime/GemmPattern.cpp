//===- GemmPattern.cpp - amp.gemm to one amp_gemm call --------------------===//
//
// Fills an amp_gemm_desc_t on the stack and calls amp_gemm.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "amp_runtime/gemm.h"

#include <cstddef>
#include <cstring>
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

/// An amp_gemm_desc_t on the stack. Its scalar fields are compile-time
/// constants: they are filled in a C++ amp_gemm_desc_t, whose bytes become a
/// constant global that initializes the stack copy with one memcpy; only
/// the buffer pointers are stored field by field. (A load and store of the
/// whole [N x i8] did the same, but LLVM's MemCpyOpt took time quadratic in
/// the number of GEMMs on it: 21 of the 23 s of compiling a 24-layer
/// transformer's step, 0.5 s with the memcpy.) The layout is thus
/// the header's, as the C++ compiler lays it out, and nothing here restates
/// the struct.
class GemmDescriptor {
public:
  GemmDescriptor(RuntimeBuilder &rb, const amp_gemm_desc_t &scalars) : rb(rb) {
    OpBuilder &b = rb.builder();
    Location loc = rb.location();
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    auto bytesTy =
        LLVM::LLVMArrayType::get(b.getI8Type(), sizeof(amp_gemm_desc_t));
    slot = LLVM::AllocaOp::create(b, loc, ptrTy, bytesTy, rb.i64(1),
                                  alignof(amp_gemm_desc_t));
    Value init = rb.constantBytes(StringRef(
        reinterpret_cast<const char *>(&scalars), sizeof(amp_gemm_desc_t)));
    LLVM::MemcpyOp::create(b, loc, slot, init, rb.i64(sizeof(amp_gemm_desc_t)),
                           /*isVolatile=*/false);
  }

  /// Stores the buffer pointer `value` at `offset`.
  template <typename Field>
  void setPointer(size_t offset, Value value) {
    static_assert(std::is_pointer_v<Field>,
                  "only the buffer pointers are stored at run time");
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

#define AMP_SET_POINTER(DESC, FIELD, VALUE)                                    \
  (DESC).setPointer<decltype(amp_gemm_desc_t::FIELD)>(                         \
      offsetof(amp_gemm_desc_t, FIELD), VALUE)

/// The scalar fields of `op`'s descriptor; every pointer is null.
amp_gemm_desc_t scalarFields(GemmOp op) {
  GemmOp::Layout l = op.getLayout();
  amp_gemm_desc_t desc;
  // Zero padding too: equal descriptors have equal bytes and share a global.
  std::memset(&desc, 0, sizeof(desc));
  desc.m = l.m;
  desc.n = l.n;
  desc.k = l.k;
  desc.batch_count = l.batchCount;
  desc.lda = l.lda;
  desc.ldb = l.ldb;
  desc.ldc = l.ldc;
  desc.ldd = l.ldd;
  desc.ld_aux = l.ldAux;
  desc.stride_a = l.strideA;
  desc.stride_b = l.strideB;
  desc.stride_c = l.strideC;
  desc.stride_d = l.strideD;
  desc.stride_aux = l.strideAux;
  desc.stride_bias = l.strideBias;
  desc.alpha = op.getAlpha().convertToFloat();
  desc.beta = op.getC() ? op.getBeta().convertToFloat() : 0.0f;
  desc.trans_a = op.getTransposeA() ? 1 : 0;
  desc.trans_b = op.getTransposeB() ? 1 : 0;
  desc.a_dtype = *getRuntimeDtype(op.getA().getType().getElementType());
  desc.b_dtype = *getRuntimeDtype(op.getB().getType().getElementType());
  desc.d_dtype = *getRuntimeDtype(op.getD().getType().getElementType());
  desc.epilogue = static_cast<amp_gemm_epilogue_t>(op.getEpilogue());
  return desc;
}

struct GemmLowering : RuntimeOpPattern<GemmOp> {
  using RuntimeOpPattern::RuntimeOpPattern;
  void lower(GemmOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value d = results[0];
    Value auxOut = op.getAuxOut() ? results[1] : Value();
    Value biasGrad = op.getBiasGrad() ? results.back() : Value();
    Value aux = adaptor.getAux() ? adaptor.getAux() : auxOut;
    Value bias = adaptor.getBias() ? adaptor.getBias() : biasGrad;

    GemmDescriptor desc(rb, scalarFields(op));
    AMP_SET_POINTER(desc, a, adaptor.getA());
    AMP_SET_POINTER(desc, b, adaptor.getB());
    if (Value c = adaptor.getC())
      AMP_SET_POINTER(desc, c, c);
    AMP_SET_POINTER(desc, d, d);
    if (bias)
      AMP_SET_POINTER(desc, bias, bias);
    if (aux)
      AMP_SET_POINTER(desc, aux, aux);
    rb.call(RuntimeFn::amp_gemm, {desc.pointer(), rb.stream()});
  }
};

#undef AMP_SET_POINTER

} // namespace

void amp::populateGemmToRuntimePatterns(RewritePatternSet &patterns,
                                        const TypeConverter &converter) {
  patterns.add<GemmLowering>(converter, patterns.getContext());
}
