//===- EmbedOps.td - the embed dialect: one op -------------*- tablegen -*-===//
//
// The dialect of a downstream compiler that embeds amp. Its one op is a
// dense layer that accumulates in f32: amp gives it the allow class.
//
//===----------------------------------------------------------------------===//

#ifndef EMBED_OPS_TD
#define EMBED_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Embed_Dialect : Dialect {
  let name = "embed";
  let cppNamespace = "::embed";
  let summary = "A downstream dialect that embeds amp's precision passes";
}

def Embed_DenseOp : Op<Embed_Dialect, "dense", [Pure]> {
  let summary = "y = x * w (2-D), accumulated in f32";
  let description = [{
    A dense layer: `x` is M x K, `w` is K x N, the result M x N. Operands
    may be f16/bf16 while the result is f32 (f32 accumulation).
  }];
  let arguments = (ins 2DTensorOf<[F16, BF16, F32]>:$x,
                       2DTensorOf<[F16, BF16, F32]>:$w);
  let results = (outs 2DTensorOf<[F16, BF16, F32]>:$y);
  let assemblyFormat = [{
    $x `,` $w attr-dict `:` `(` type($x) `,` type($w) `)` `->` type($y)
  }];
}

#endif // EMBED_OPS_TD
