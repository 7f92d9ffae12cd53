#!/usr/bin/env python3
"""Writes nn-dialect forward models with their loss, for the examples and
for tests and benchmarks of the amp passes. Each is one func.func
@train_step whose arguments carry nn.role = #nn.role<param>, <input> or
<label> and whose single result is the loss (nn.role = #nn.role<loss>):
the input of nn-autodiff (docs/autodiff.md), which builds the backward pass
and the optimizer update.

  transformer  pre-LN transformer language model (train with optimizer=adamw)
  bert         BERT encoder layers with a token classifier head
  mlp          deep MLP (matmul + bias + relu) (train with momentum=0.9)

Backward passes are not written here: nn-autodiff produces every training
step. --forward-only is accepted and does nothing (forward is the only mode).

Weights are stored as [in, out] and applied as `x @ W` (the transpose of
torch.nn.Linear.weight). Standard library only.

Examples:
  gen_training_graph.py --model transformer --layers 2 --batch 2 --seq 16 \\
      --dmodel 64 --heads 4 --ffn 256 --vocab 128 -o examples/transformer.mlir
  gen_training_graph.py --model mlp --ops-target 100000 -o /tmp/mlp.mlir
  amp-opt /tmp/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline
"""

import argparse
import math
import sys


def fmt_float(x):
    """An MLIR float literal that parses back to the same f32 value."""
    return "%.9e" % x


class Emitter:
    """Builds the body of one func.func: SSA names, types, op count."""

    def __init__(self, elem="f32"):
        self.elem = elem
        self.lines = []
        self.types = {}
        self.names = set()
        self.num_ops = 0

    # -- types ------------------------------------------------------------
    @staticmethod
    def ttype(shape, elem):
        dims = "".join("%dx" % d for d in shape)
        return "tensor<%s%s>" % (dims, elem)

    def ty(self, v):
        shape, elem = self.types[v]
        return self.ttype(shape, elem)

    def shape(self, v):
        return self.types[v][0]

    def fresh(self, name):
        base, n = name, 0
        while name in self.names:
            n += 1
            name = "%s_%d" % (base, n)
        self.names.add(name)
        return "%" + name

    def declare(self, name, shape, elem=None):
        v = self.fresh(name)
        self.types[v] = (tuple(shape), elem or self.elem)
        return v

    # -- emission ---------------------------------------------------------
    def comment(self, text):
        self.lines.append("  // " + text)

    def blank(self):
        self.lines.append("")

    def op(self, results, text):
        self.num_ops += 1
        if results:
            self.lines.append("  %s = %s" % (", ".join(results), text))
        else:
            self.lines.append("  " + text)

    def binary(self, opname, name, a, b):
        sa, sb = self.shape(a), self.shape(b)
        out = broadcast_shape(sa, sb)
        r = self.declare(name, out, self.types[a][1])
        self.op([r], "nn.%s %s, %s : (%s, %s) -> %s" %
                (opname, a, b, self.ty(a), self.ty(b), self.ty(r)))
        return r

    def add(self, name, a, b):
        return self.binary("add", name, a, b)

    def mul(self, name, a, b):
        return self.binary("mul", name, a, b)

    def unary(self, opname, name, x, attrs=""):
        r = self.declare(name, self.shape(x), self.types[x][1])
        self.op([r], "nn.%s %s%s : %s" % (opname, x, attrs, self.ty(r)))
        return r

    def matmul(self, name, a, b, ta=False, tb=False):
        sa, sb = list(self.shape(a)), list(self.shape(b))
        if ta:
            sa[-2], sa[-1] = sa[-1], sa[-2]
        if tb:
            sb[-2], sb[-1] = sb[-1], sb[-2]
        assert sa[-1] == sb[-2], (name, sa, sb)
        batch = broadcast_shape(tuple(sa[:-2]), tuple(sb[:-2]))
        r = self.declare(name, tuple(batch) + (sa[-2], sb[-1]))
        flags = [f for f, on in (("transpose_a", ta), ("transpose_b", tb)) if on]
        attrs = " {%s}" % ", ".join(flags) if flags else ""
        self.op([r], "nn.matmul %s, %s%s : (%s, %s) -> %s" %
                (a, b, attrs, self.ty(a), self.ty(b), self.ty(r)))
        return r

    def reshape(self, name, x, shape):
        assert prod(shape) == prod(self.shape(x)), (name, shape)
        r = self.declare(name, shape)
        self.op([r], "nn.reshape %s : %s -> %s" % (x, self.ty(x), self.ty(r)))
        return r

    def transpose(self, name, x, perm):
        s = self.shape(x)
        r = self.declare(name, [s[p] for p in perm])
        self.op([r], "nn.transpose %s [%s] : %s -> %s" %
                (x, ", ".join(map(str, perm)), self.ty(x), self.ty(r)))
        return r

    def layer_norm(self, name, x, scale, bias, eps):
        s = self.shape(x)
        y = self.declare(name, s)
        mean = self.declare(name + "_mean", s[:-1], "f32")
        rstd = self.declare(name + "_rstd", s[:-1], "f32")
        self.op([y, mean, rstd],
                "nn.layer_norm %s, %s, %s {epsilon = %s : f32} : "
                "(%s, %s, %s) -> (%s, %s, %s)" %
                (x, scale, bias, fmt_float(eps), self.ty(x), self.ty(scale),
                 self.ty(bias), self.ty(y), self.ty(mean), self.ty(rstd)))
        return y, mean, rstd

    def dropout(self, name, x, seed, rate):
        """nn.dropout of x in training with a constant i64 seed."""
        s = self.declare(name + "_seed", (), "i64")
        self.op([s], "arith.constant dense<%d> : %s" % (seed, self.ty(s)))
        r = self.declare(name, self.shape(x), self.types[x][1])
        self.op([r], "nn.dropout %s, %s {rate = %s : f32, training} : %s" %
                (x, s, fmt_float(rate), self.ty(r)))
        return r

    def broadcast_to(self, name, x, shape):
        r = self.declare(name, shape)
        self.op([r], "nn.broadcast_to %s : %s -> %s" %
                (x, self.ty(x), self.ty(r)))
        return r

    def splat(self, name, value, shape=()):
        r = self.declare(name, shape)
        self.op([r], "arith.constant dense<%s> : %s" % (fmt_float(value),
                                                        self.ty(r)))
        return r


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def broadcast_shape(a, b):
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + a
    b = (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        assert x == y or x == 1 or y == 1, (a, b)
        out.append(max(x, y))
    return tuple(out)


class Model:
    """A forward model: the Emitter plus the function signature."""

    def __init__(self):
        self.e = Emitter()
        self.params = []     # ssa names
        self.inputs = []     # (ssa, role)
        self.inits = {}      # ssa -> nn.init value (layer-norm gains: 1.0)

    def param(self, name, shape, init=None):
        v = self.e.declare(name, shape)
        self.params.append(v)
        if init is not None:
            self.inits[v] = init
        return v

    def data(self, name, shape, elem, role):
        v = self.e.declare(name, shape, elem)
        self.inputs.append((v, role))
        return v

    def render(self, a, lines, loss):
        """The function: params and data in, the loss out."""
        e = self.e
        e.op([], "return %s : %s" % (loss, e.ty(loss)))
        header = ["Generated by scripts/gen_training_graph.py; do not edit by "
                  "hand."]
        if a.cmdline:
            header.append("  " + " ".join(sys.argv[1:]))
        out = ["// " + l for l in header + lines]
        out.append("func.func @train_step(")
        def attrs(v, r):
            if v in self.inits:
                return "{nn.init = %s : f32, nn.role = #nn.role<%s>}" % (
                    repr(float(self.inits[v])), r)
            return "{nn.role = #nn.role<%s>}" % r
        args = [(p, "param") for p in self.params] + self.inputs
        out.append(",\n".join("    %s: %s %s" % (v, e.ty(v), attrs(v, r))
                              for v, r in args) + ")")
        out.append("    -> (%s {nn.role = #nn.role<loss>}) {" % e.ty(loss))
        out.extend(e.lines)
        out.append("}")
        # The op count is the ops in the body, func.return included.
        return "\n".join(out) + "\n", e.num_ops


# ---------------------------------------------------------------------------
# Transformer
# ---------------------------------------------------------------------------

LAYER_PARAMS = ["ln1_g", "ln1_b", "wq", "bq", "wk", "bk", "wv", "bv", "wo",
                "bo", "ln2_g", "ln2_b", "w1", "b1", "w2", "b2"]


def attention_dropout(e, a, layer, probs):
    """Layer `layer`'s attention probabilities after --attn-dropout (a
    training nn.dropout with seed 1000 + layer), or as they are."""
    if a.attn_dropout == 0:
        return probs
    return e.dropout("l%d_probs_dropped" % layer, probs, 1000 + layer,
                     a.attn_dropout)


def repeat_heads(e, a, name, t, G):
    """[B, Hkv, S, Dh] with each head repeated G times: in a row (Hugging
    Face's repeat_kv, query head h reads key head h / G) or, with
    --kv-repeat tile, the heads tiled G times (x.repeat(1, G, 1, 1): head
    h reads h % Hkv), which costs the same but is no grouped-query
    attention that nn-fuse-attention reads."""
    B, Hkv, S, Dh = e.shape(t)
    if G == 1:
        return t
    if a.kv_repeat == "tile":
        one = e.reshape(name + "_1", t, (B, 1, Hkv, S, Dh))
        wide = e.broadcast_to(name + "_wide", one, (B, G, Hkv, S, Dh))
    else:
        one = e.reshape(name + "_1", t, (B, Hkv, 1, S, Dh))
        wide = e.broadcast_to(name + "_wide", one, (B, Hkv, G, S, Dh))
    return e.reshape(name, wide, (B, Hkv * G, S, Dh))


def emit_transformer(a):
    B, S, D, H, F, V, L = a.batch, a.seq, a.dmodel, a.heads, a.ffn, a.vocab, a.layers
    if D % H:
        sys.exit("error: --dmodel must be a multiple of --heads")
    Hkv = a.kv_heads or H
    if H % Hkv:
        sys.exit("error: --heads must be a multiple of --kv-heads")
    Dh, N, Dkv = D // H, B * S, (D // H) * Hkv
    st = Model()
    e = st.e

    # Parameters (and their shapes), in signature order.
    tok = st.param("tok_emb", (V, D))
    pos = st.param("pos_emb", (S, D))
    layers = []
    for l in range(L):
        shapes = {"ln1_g": (D,), "ln1_b": (D,), "wq": (D, D), "bq": (D,),
                  "wk": (D, Dkv), "bk": (Dkv,), "wv": (D, Dkv), "bv": (Dkv,),
                  "wo": (D, D), "bo": (D,), "ln2_g": (D,), "ln2_b": (D,),
                  "w1": (D, F), "b1": (F,), "w2": (F, D), "b2": (D,)}
        layers.append({k: st.param("l%d_%s" % (l, k), shapes[k],
                                   1.0 if k.endswith("_g") else None)
                       for k in LAYER_PARAMS})
    lnf_g = st.param("lnf_g", (D,), 1.0)
    lnf_b = st.param("lnf_b", (D,))
    w_lm = st.param("w_lm", (D, V))
    ids = st.data("ids", (B, S), "i32", "input")
    labels = st.data("labels", (B, S), "i32", "label")

    e.comment("Forward. Activations are [B*S, D] = [%d, %d]; heads are "
              "[B, H, S, Dh] = [%d, %d, %d, %d]." % (N, D, B, H, S, Dh))
    scale = e.splat("attn_scale", 1.0 / math.sqrt(Dh))
    mask = None
    if a.causal:
        mask = e.declare("causal_mask", (S, S))
        rows = ", ".join("[%s]" % ", ".join(
            "0.0" if j <= i else fmt_float(-1e4) for j in range(S))
            for i in range(S))
        e.op([mask], "arith.constant dense<[%s]> : %s" % (rows, e.ty(mask)))
    emb = e.declare("emb", (B, S, D))
    e.op([emb], "nn.embedding %s, %s : (%s, %s) -> %s" %
         (tok, ids, e.ty(tok), e.ty(ids), e.ty(emb)))
    x3 = e.add("x0_3d", emb, pos)
    x = e.reshape("x0", x3, (N, D))

    def linear(name, inp, w, b):
        return e.add(name, e.matmul(name + "_mm", inp, w), b)

    def to_heads(name, t, heads=H):  # [N, heads*Dh] -> [B, heads, S, Dh]
        return e.transpose(name, e.reshape(name + "_4d", t, (B, S, heads, Dh)),
                           (0, 2, 1, 3))

    def from_heads(name, t):  # [B, H, S, Dh] -> [N, D]
        return e.reshape(name, e.transpose(name + "_bshd", t, (0, 2, 1, 3)),
                         (N, D))

    for l, P in enumerate(layers):
        e.blank()
        e.comment("Layer %d forward." % l)
        p = "l%d_" % l
        y1 = e.layer_norm(p + "ln1", x, P["ln1_g"], P["ln1_b"], a.eps)[0]
        q = linear(p + "q", y1, P["wq"], P["bq"])
        k = linear(p + "k", y1, P["wk"], P["bk"])
        v = linear(p + "v", y1, P["wv"], P["bv"])
        qh = to_heads(p + "qh", q)
        kh = repeat_heads(e, a, p + "kh_rep", to_heads(p + "kh", k, Hkv),
                          H // Hkv)
        vh = repeat_heads(e, a, p + "vh_rep", to_heads(p + "vh", v, Hkv),
                          H // Hkv)
        scores = e.matmul(p + "scores", qh, kh, tb=True)
        z = e.mul(p + "scaled", scores, scale)
        if mask is not None:
            z = e.add(p + "masked", z, mask)
        probs = attention_dropout(
            e, a, l, e.unary("softmax", p + "probs", z, " {axis = -1 : i64}"))
        ctxh = e.matmul(p + "ctxh", probs, vh)
        ctx = from_heads(p + "ctx", ctxh)
        o = linear(p + "attn_out", ctx, P["wo"], P["bo"])
        x1 = e.add(p + "x1", x, o)
        y2 = e.layer_norm(p + "ln2", x1, P["ln2_g"], P["ln2_b"], a.eps)[0]
        f1 = linear(p + "ffn1", y2, P["w1"], P["b1"])
        g = e.unary("gelu", p + "gelu", f1)
        f2 = linear(p + "ffn2", g, P["w2"], P["b2"])
        x2 = e.add(p + "x2", x1, f2)
        x = x2

    e.blank()
    e.comment("Final layer norm, LM head, loss.")
    yf = e.layer_norm("lnf", x, lnf_g, lnf_b, a.eps)[0]
    logits = e.matmul("logits", yf, w_lm)
    logits3 = e.reshape("logits_3d", logits, (B, S, V))
    loss = e.declare("loss", (), "f32")
    e.op([loss], "nn.cross_entropy %s, %s : (%s, %s) -> %s" %
         (logits3, labels, e.ty(logits3), e.ty(labels), e.ty(loss)))
    return st.render(a, [
        "A pre-LN transformer language model and its loss:",
        "  layers=%d batch=%d seq=%d dmodel=%d heads=%d ffn=%d vocab=%d%s%s"
        % (L, B, S, D, H, F, V, " causal" if a.causal else "",
           " kv_heads=%d (%s)" % (Hkv, a.kv_repeat) if Hkv != H else ""),
        "  x = tok_emb[ids] + pos_emb; per layer:",
        "    x = x + attn(ln1(x)) @ wo + bo,  attn = softmax(q k^T / sqrt(Dh)) v"
        + (" (the probabilities dropped, rate %s)" % fmt_float(a.attn_dropout)
           if a.attn_dropout else ""),
        "    x = x + gelu(ln2(x) @ w1 + b1) @ w2 + b2",
        "  loss = cross_entropy(lnf(x) @ w_lm, labels)",
        "Weights are [in, out] (x @ W). nn-autodiff (optimizer=adamw) builds",
        "the training step."], loss)


# ---------------------------------------------------------------------------
# BERT encoder layers
# ---------------------------------------------------------------------------

def emit_bert(a):
    """BERT-base-shaped post-LN encoder layers: token + position embeddings
    with a layer norm, then per layer x = LN(x + attn(x)), x = LN(x +
    ffn(x)) with GELU, then a token classifier head over the vocabulary (as
    BERT's masked-LM head, without its transform layer). Forward and loss
    only, like every model here."""
    B, S, D, H, F, V, L = a.batch, a.seq, a.dmodel, a.heads, a.ffn, a.vocab, a.layers
    if D % H:
        sys.exit("error: --dmodel must be a multiple of --heads")
    Dh, N = D // H, B * S
    st = Model()
    e = st.e
    tok = st.param("tok_emb", (V, D))
    pos = st.param("pos_emb", (S, D))
    emb_g, emb_b = st.param("emb_ln_g", (D,), 1.0), st.param("emb_ln_b", (D,))
    layers = []
    for l in range(L):
        shapes = {"wq": (D, D), "bq": (D,), "wk": (D, D), "bk": (D,),
                  "wv": (D, D), "bv": (D,), "wo": (D, D), "bo": (D,),
                  "ln1_g": (D,), "ln1_b": (D,), "w1": (D, F), "b1": (F,),
                  "w2": (F, D), "b2": (D,), "ln2_g": (D,), "ln2_b": (D,)}
        layers.append({k: st.param("l%d_%s" % (l, k), v,
                                   1.0 if k.endswith("_g") else None)
                       for k, v in shapes.items()})
    w_cls, b_cls = st.param("w_cls", (D, V)), st.param("b_cls", (V,))
    ids = st.data("ids", (B, S), "i32", "input")
    labels = st.data("labels", (B, S), "i32", "label")

    e.comment("Embeddings. Activations are [B*S, D] = [%d, %d]." % (N, D))
    scale = e.splat("attn_scale", 1.0 / math.sqrt(Dh))
    emb = e.declare("emb", (B, S, D))
    e.op([emb], "nn.embedding %s, %s : (%s, %s) -> %s" %
         (tok, ids, e.ty(tok), e.ty(ids), e.ty(emb)))
    x = e.reshape("x0", e.add("x0_3d", emb, pos), (N, D))
    x = e.layer_norm("emb_ln", x, emb_g, emb_b, a.eps)[0]

    def linear(name, inp, w, b):
        return e.add(name, e.matmul(name + "_mm", inp, w), b)

    def heads(name, t):  # [N, D] -> [B, H, S, Dh]
        return e.transpose(name, e.reshape(name + "_4d", t, (B, S, H, Dh)),
                           (0, 2, 1, 3))

    for l, P in enumerate(layers):
        e.blank()
        e.comment("Encoder layer %d." % l)
        p = "l%d_" % l
        q = heads(p + "qh", linear(p + "q", x, P["wq"], P["bq"]))
        k = heads(p + "kh", linear(p + "k", x, P["wk"], P["bk"]))
        v = heads(p + "vh", linear(p + "v", x, P["wv"], P["bv"]))
        z = e.mul(p + "scaled", e.matmul(p + "scores", q, k, tb=True), scale)
        probs = attention_dropout(
            e, a, l, e.unary("softmax", p + "probs", z, " {axis = -1 : i64}"))
        ctx = e.reshape(p + "ctx", e.transpose(
            p + "ctx_bshd", e.matmul(p + "ctxh", probs, v), (0, 2, 1, 3)),
            (N, D))
        attn = linear(p + "attn_out", ctx, P["wo"], P["bo"])
        x = e.layer_norm(p + "ln1", e.add(p + "res1", x, attn), P["ln1_g"],
                         P["ln1_b"], a.eps)[0]
        f = linear(p + "ffn2", e.unary("gelu", p + "gelu",
                                       linear(p + "ffn1", x, P["w1"], P["b1"])),
                   P["w2"], P["b2"])
        x = e.layer_norm(p + "ln2", e.add(p + "res2", x, f), P["ln2_g"],
                         P["ln2_b"], a.eps)[0]

    e.blank()
    e.comment("Classifier head over the vocabulary, loss.")
    logits = e.reshape("logits_3d", linear("logits", x, w_cls, b_cls), (B, S, V))
    loss = e.declare("loss", (), "f32")
    e.op([loss], "nn.cross_entropy %s, %s : (%s, %s) -> %s" %
         (logits, labels, e.ty(logits), e.ty(labels), e.ty(loss)))
    return st.render(a, [
        "BERT encoder layers (post-LN, GELU, softmax attention) with token",
        "and position embeddings and a token classifier head, and the loss:",
        "  layers=%d batch=%d seq=%d hidden=%d heads=%d ffn=%d vocab=%d"
        % (L, B, S, D, H, F, V),
        "nn-autodiff (optimizer=adamw) builds the training step."], loss)


# ---------------------------------------------------------------------------
# MLP
# ---------------------------------------------------------------------------

def emit_mlp(a):
    B, W, C, L = a.batch, a.width, a.classes, a.layers
    st = Model()
    e = st.e
    dims = [W] * (L + 1) + [C]  # L hidden layers of width W, then the head
    ws, bs = [], []
    for i in range(L + 1):
        ws.append(st.param("w%d" % i, (dims[i], dims[i + 1])))
        bs.append(st.param("b%d" % i, (dims[i + 1],)))
    x = st.data("x", (B, W), "f32", "input")
    labels = st.data("labels", (B,), "i32", "label")

    act = x
    for i in range(L):
        h = e.add("h%d" % i, e.matmul("xw%d" % i, act, ws[i]), bs[i])
        act = e.unary("relu", "a%d" % i, h)
    logits = e.add("logits", e.matmul("xw%d" % L, act, ws[L]), bs[L])
    loss = e.declare("loss", (), "f32")
    e.op([loss], "nn.cross_entropy %s, %s : (%s, %s) -> %s" %
         (logits, labels, e.ty(logits), e.ty(labels), e.ty(loss)))
    return st.render(a, [
        "A deep MLP and its loss: %d hidden layers of width %d (matmul +"
        % (L, W),
        "bias + relu), a %d-class head, cross-entropy. nn-autodiff" % C,
        "(lr=0.05 momentum=0.9) builds the training step."], loss)


# ---------------------------------------------------------------------------

def count_ops(a, layers):
    a2 = argparse.Namespace(**vars(a))
    a2.layers = layers
    a2.cmdline = False
    return generate(a2)[1]


def generate(a):
    emit = {"transformer": emit_transformer, "bert": emit_bert,
            "mlp": emit_mlp}[a.model]
    return emit(a)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", choices=["transformer", "bert", "mlp"],
                    required=True)
    ap.add_argument("--layers", type=int, default=2,
                    help="transformer blocks, or hidden layers of the MLP")
    ap.add_argument("--ops-target", type=int, default=None, metavar="K",
                    help="choose --layers so the op count is about K")
    ap.add_argument("--batch", type=int, default=None,
                    help="batch size (default 2 transformer, 32 mlp)")
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--dmodel", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=256)
    ap.add_argument("--vocab", type=int, default=128)
    ap.add_argument("--eps", type=float, default=1e-5, help="layer-norm epsilon")
    ap.add_argument("--causal", action="store_true",
                    help="add a causal mask (constant, -1e4 above the diagonal)"
                         " to the attention scores")
    ap.add_argument("--attn-dropout", type=float, default=0.0, metavar="RATE",
                    help="transformer and bert: a training dropout of the "
                         "attention probabilities (BERT's and GPT-2's "
                         "attention dropout), seed 1000 + layer")
    ap.add_argument("--kv-heads", type=int, default=None, metavar="N",
                    help="transformer: grouped-query attention, N key/value "
                         "heads (dividing --heads), each repeated for its "
                         "query heads before the attention")
    ap.add_argument("--kv-repeat", choices=["expand", "tile"],
                    default="expand",
                    help="how --kv-heads repeats the heads: expand (each "
                         "head repeated in a row, Hugging Face's repeat_kv) "
                         "or tile (the heads tiled: the same cost, but no "
                         "grouped-query attention for nn-fuse-attention)")
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--forward-only", action="store_true",
                    help="accepted for compatibility; does nothing: every "
                         "model is forward + loss (the default and only "
                         "mode)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.batch is None:
        a.batch = 32 if a.model == "mlp" else 2
    a.cmdline = True

    if a.ops_target is not None:
        n1, n2 = count_ops(a, 1), count_ops(a, 2)
        per_layer, fixed = n2 - n1, n1 - (n2 - n1)
        a.layers = max(1, round((a.ops_target - fixed) / per_layer))
    if a.layers < (0 if a.model == "mlp" else 1):
        sys.exit("error: --layers is too small")

    text, n = generate(a)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    print("%s: layers=%d ops=%d" % (a.model, a.layers, n), file=sys.stderr)


if __name__ == "__main__":
    main()
