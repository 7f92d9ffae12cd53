//===- GemmPattern.cpp - amp.gemm to one amp_gemm_with_pointers call ------===//
//
// Each amp.gemm becomes one call of amp_gemm_with_pointers: a constant
// amp_gemm_desc_t with the GEMM's shapes, dtypes and epilogue, and its
// buffer pointers as arguments.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "amp_runtime/gemm.h"

#include <cstring>

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

struct GemmLowering : RuntimeOpLowering<GemmOp> {
  void lower(GemmOp op, Adaptor adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    Value d = results[0];
    Value auxOut = op.getAuxOut() ? results[1] : Value();
    Value biasGrad = op.getBiasGrad() ? results.back() : Value();
    Value aux = adaptor.getAux() ? adaptor.getAux() : auxOut;
    Value bias = adaptor.getBias() ? adaptor.getBias() : biasGrad;

    // The scalar fields are filled in a C++ amp_gemm_desc_t, whose bytes
    // become a constant global (equal descriptors share one): the layout is
    // the header's, as the C++ compiler lays it out, and nothing here
    // restates the struct. The pointers are arguments, so that a call
    // needs no descriptor on the stack: filling one cost a memcpy and a
    // store per pointer, ~27% of a lowered 10k-op transformer's ops.
    amp_gemm_desc_t scalars = scalarFields(op);
    Value shape = rb.constantBytes(
        StringRef(reinterpret_cast<const char *>(&scalars), sizeof(scalars)));
    auto orNull = [&](Value v) { return v ? v : rb.null(); };
    rb.call(RuntimeFn::amp_gemm_with_pointers,
            {shape, adaptor.getA(), adaptor.getB(), orNull(adaptor.getC()), d,
             orNull(bias), orNull(aux), rb.stream()});
  }
};

} // namespace

void amp::addGemmLowerings(LoweringTable &table) { table.add<GemmLowering>(); }
