#!/usr/bin/env python3
"""Writes the PyTorch-exported ONNX models of test/Import/torch-export.test.

A small BERT-like classifier (token and position embeddings, LayerNorm, two
nn.TransformerEncoderLayers with the exact GELU, a linear head on the first
token) exported by both of PyTorch's exporters, as users get them:

  bert_tiny_script.onnx                the TorchScript exporter (dynamo=False,
                                       opset 17: Mod and Shape arithmetic in
                                       the attention, the erf GELU pattern)
  bert_tiny_dynamo.onnx(.data)         the torch.export-based exporter, the
                                       default since PyTorch 2.9 (opset 18,
                                       weights as external data)
  bert_tiny_ids.npy, bert_tiny_logits.npy   a batch and PyTorch's logits
  gpt_tiny_script.onnx, gpt_tiny_dynamo.onnx(.data)
                                       a causal language model (the same
                                       layers with the causal mask, an LM
                                       head): the TorchScript exporter builds
                                       the mask with Expand, Trilu, Equal and
                                       Where on constants
  gpt_tiny_logits.npy                  its logits on bert_tiny_ids.npy
  bert_tiny_opset23.onnx, gpt_tiny_opset23.onnx
                                       both exported at opset 23
                                       (dynamo=True): the attention is
                                       ONNX's Attention
  bert_pad_script.onnx, bert_pad_dynamo.onnx(.data)
                                       the BERT-like classifier with a
                                       padding mask computed from the ids
                                       (src_key_padding_mask=(ids == 0)):
                                       Equal of the input, Where, Reshape
                                       and Expand at run time
  bert_pad_ids.npy, bert_pad_logits.npy   a padded batch and its logits
  hf_attn_script.onnx, hf_attn_dynamo.onnx(.data)
                                       Hugging Face's form of the padding
                                       mask: an INT64 attention_mask input,
                                       Unsqueeze, Cast to FLOAT, (1 - m) *
                                       float32 min added to the scores
  hf_attn_mask.npy, hf_attn_logits.npy    its mask for bert_pad_ids.npy and
                                       its logits
  hf_attn_mask_ones.npy                a mask that hides nothing
  hf_bert_script.onnx, hf_bert_dynamo.onnx
                                       Hugging Face's BertForSequenceClassification
                                       (transformers, a tiny config, random
                                       weights) with its attention_mask
                                       input: GatherElements of the token
                                       type buffer, the mask through Cast,
                                       GatherND or Gather, And, and IsNaN
                                       around the attention's softmax
  hf_bert_opset23.onnx, hf_gpt2_opset23.onnx
                                       BERT and GPT-2 (below) exported at
                                       opset 23: ONNX's Attention
  hf_bert_logits.npy                   its logits for bert_pad_ids.npy and
                                       hf_attn_mask.npy
  bert_tiny_tokens.csv                 600 rows of 8 token ids and a label
                                       (the first token's id mod 3), for
                                       amp-run --data
  hf_bert_tokens.csv                   600 padded rows for the two-input
                                       models: 8 ids (2 to 8 tokens, then
                                       id 0), the 8 mask values, a label
                                       (the first token's id mod 3)
  hf_bert_tokens.npz                   the same rows as NumPy arrays,
                                       np.savez_compressed: ids, mask (bool),
                                       labels
  hf_bert_tokens_stored.npz            its first 100 rows, np.savez: ids,
                                       mask (int64), labels (int32)
  hf_gpt2_script.onnx, hf_gpt2_dynamo.onnx
                                       Hugging Face's GPT2LMHeadModel (a tiny
                                       config, random weights) with its
                                       attention_mask input, [4, 8, 50]
                                       logits
  hf_gpt2_logits.npy                   its logits for bert_pad_ids.npy and
                                       hf_attn_mask.npy
  scalar_weights.onnx                  a CNN with one-element weights (a
                                       PReLU's single slope, a one-channel
                                       convolution's bias); TorchScript
                                       exporter
  scalar_weights_torch_log.csv         its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv
  gather_empty.onnx                    Gather of no index (an empty
                                       [2, 0] result) of a computed tensor,
                                       and its ReduceSum; gather_empty_*.npy
                                       its input and outputs (gathers.test)
  duplicate_initializer.onnx           a graph defining the initializer w
                                       twice (an error)
  clip_loss_script.onnx,               Hugging Face's CLIPModel (a tiny
  clip_loss_dynamo.onnx,               config) returning its contrastive
  clip_loss_dynamo_noopt.onnx          loss (return_loss=True) of ids and
                                       pixels: TorchScript exporter (the
                                       root parameter `logit_scale`, one
                                       element), torch.export-based (which
                                       folds logit_scale.exp() into `exp`)
                                       and the same with optimize=False
  clip_rows.npz, clip_torch_log.csv    its 48 rows, and its losses over 10
                                       SGD steps on the first 40 (4 per
                                       step, lr 0.1, momentum 0.9)
  fresh_mlp.onnx                       an MLP with a fresh model's equal
                                       LayerNorm weights and zero biases,
                                       which the TorchScript exporter stores
                                       once (the others as Identity nodes)
  fresh_mlp_torch_log.csv              its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv
  hf_gpt2_tied.onnx, .onnx.data        the same model with distinct norm
                                       weights and biases, torch.export-based
                                       exporter, external data (its output
                                       projection tied to the embedding)
  hf_gpt2_tied_script.onnx             the same, TorchScript exporter
  hf_gpt2_tied_torch_log.csv,          its losses over 10 SGD steps (lr 0.1,
  hf_gpt2_tied_trained_logits.npy      momentum 0.9) on the first 40 rows of
                                       hf_gpt2_tokens.npz, and its logits
                                       after them
  hf_llama_script.onnx, hf_llama_dynamo.onnx
                                       Hugging Face's LlamaForCausalLM (a
                                       tiny config, random weights: RMSNorm,
                                       rotary embeddings, SwiGLU, 4 query
                                       and 2 key/value heads) with its
                                       attention_mask input, [4, 8, 50]
                                       logits; the TorchScript exporter
                                       writes the rotary tables as Cos and
                                       Sin of a Constant
  hf_llama_opset23.onnx                the same model exported at opset 23
                                       (dynamo=True): ONNX's Attention and
                                       RMSNormalization
  hf_llama_logits.npy                  its logits for bert_pad_ids.npy and
                                       hf_attn_mask.npy
  hf_llama_torch_log.csv               its losses over 10 SGD steps (lr 0.1,
                                       momentum 0.9) on the first 40 rows of
                                       hf_gpt2_tokens.npz, 4 per step in
                                       order
  hf_albert_loss_script.onnx,          a tiny AlbertForSequenceClassification
  hf_albert_loss_dynamo.onnx           (one layer's weights shared by 2)
                                       called with its labels (loss,
                                       logits); both exporters fold the
                                       shared weights' transposes twice
  hf_albert_loss_torch_log.csv         its losses over 10 SGD steps (lr 0.1,
                                       momentum 0.9) on hf_bert_tokens.npz
  hf_llama_lm_loss_script.onnx,        hf_llama's model called with its
  hf_llama_lm_loss_dynamo.onnx         labels (loss, logits): Hugging
                                       Face's causal LM loss, which pads the
                                       INT64 labels with -100 and shifts them
  hf_llama_lm_tokens.npz               hf_gpt2_tokens.npz's first 48 rows,
                                       the ids as labels (-100 where the
                                       mask is 0); PyTorch's training on it
                                       is hf_llama_torch_log.csv's
  hf_t5_script.onnx                    Hugging Face's T5EncoderModel (a tiny
                                       config, random weights): relative
                                       position buckets computed from
                                       constants; TorchScript exporter
  hf_t5_hidden.npy                     its hidden states for bert_pad_ids.npy
                                       and hf_attn_mask.npy
  hf_mobilenet.onnx, hf_swin.onnx      Hugging Face's MobileNetV2 and Swin
                                       image classifiers (tiny configs,
                                       random weights); TorchScript exporter
  hf_vision_x.npy                      a [2, 3, 32, 32] batch of images
  hf_mobilenet_logits.npy,             their logits for it
  hf_swin_logits.npy
  hf_vit.onnx                          Hugging Face's ViTForImageClassification
                                       (a tiny config, random weights) on
                                       8 x 8 images; TorchScript exporter
  hf_vit_torch_log.csv                 its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_x.npy
  hf_gpt2_tokens.npz                   300 padded windows of the text of
                                       gpt_tiny_tokens: ids, mask, and
                                       labels, the next token or -100 where
                                       the next position is padding
  gpt_tiny_tokens.csv, gpt_tiny_tokens.npz
                                       300 windows of 8 tokens of a text
                                       whose next token follows from the
                                       current one (a fixed random
                                       successor table), and their next
                                       tokens: rows of 8 ids then 8 labels,
                                       and the arrays ids and labels
  bn_cnn_train.onnx, bn_cnn_eval.onnx  a CNN with BatchNorm2d and BatchNorm1d
                                       layers, exported by the TorchScript
                                       exporter for training
                                       (TrainingMode.TRAINING: training_mode
                                       = 1 nodes) and in eval mode, both
                                       without constant folding (which folds
                                       eval-mode BatchNorm into the Conv;
                                       the torch.export-based exporter always
                                       does, even in training mode)
  bn_cnn_rows.csv, bn_cnn_x.npy        16 rows of 64 features (0..16) and a
                                       label; the same features / 16 as the
                                       [16, 1, 8, 8] input
  bn_cnn_torch_log.csv                 the losses of 5 full-batch SGD steps
                                       (lr 0.1, momentum 0.9) of the model in
                                       training mode on those rows
  bn_cnn_eval_logits.npy               its eval-mode logits on them after
                                       the 5 steps (updated params and
                                       running statistics)
  attn_dropout_train.onnx              an attention block with BERT's
                                       dropouts (0.1 on the probabilities,
                                       0.2 on its output) exported for
                                       training (training_mode = true
                                       Dropout nodes)

  act_mlp.onnx                         an MLP whose hidden layer feeds every
                                       activation that amp-import-onnx builds
                                       of nn ops (ELU, SELU, CELU, Softplus,
                                       Softsign, Mish, Hardswish, PReLU,
                                       LeakyReLU, Hardsigmoid), averaged;
                                       TorchScript exporter, opset 18
  act_mlp_torch_log.csv                its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv (features / 16)

  resize_cnn.onnx                      a CNN that resizes as PyTorch does:
                                       Upsample(scale 2, nearest), bilinear
                                       to 5 x 5 (align_corners=False) and
                                       bicubic to 7 x 7 (align_corners=True);
                                       TorchScript exporter, opset 17
  resize_cnn_torch_log.csv             its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv (the [16, 1, 8, 8]
                                       input of bn_cnn_x.npy)
  resize_cnn_logits.npy                its logits on bn_cnn_x.npy before
                                       training

  gn_cnn.onnx                          a UNet-like block: GroupNorm (exported
                                       as Reshape, InstanceNormalization,
                                       Reshape, Mul, Add), SiLU, a strided
                                       conv, Upsample(nearest), InstanceNorm2d
                                       (affine); TorchScript exporter, opset 17
  gn_cnn_torch_log.csv                 its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv
  gn_cnn_logits.npy                    its logits on bn_cnn_x.npy before
                                       training

  einsum_model.onnx                    single-head self-attention written with
                                       torch.einsum over the 16 rows'
                                       features as 8 tokens of 8;
                                       TorchScript exporter, opset 17 (Einsum
                                       nodes)
  einsum_model_torch_log.csv           its losses over 10 full-batch SGD
                                       steps (lr 0.5, momentum 0.9) on
                                       bn_cnn_rows.csv (features / 16)

  trig_mlp.onnx                        an MLP whose hidden layer h feeds
                                       sin(2h) + 0.5 cos(h) + erf(h);
                                       TorchScript exporter, opset 17
  trig_mlp_torch_log.csv               its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9) on
                                       bn_cnn_rows.csv (features / 16)
  ema_torch_params.csv, ema_buffers_torch_params.csv,
  ema_ratio_torch_params.csv, ema_power_torch_params.csv
                                       the averaged BN CNN of AveragedModel
                                       (use_buffers False and True),
                                       diffusers' EMAModel and timm's
                                       ModelEmaV3 after 10 SGD steps
                                       (write_ema, write_ema_warmup)
  clip_norm_inf_torch_log.csv, clip_norm_l1_torch_log.csv,
  clip_norm_p3_torch_log.csv, clip_value_torch_log.csv,
  clip_value_then_norm_torch_log.csv
                                       the BN CNN's losses (and the norms
                                       clip_grad_norm_ returns) over 10 SGD
                                       steps with clip_grad_norm_ of
                                       norm_type inf, 1 and 3,
                                       clip_grad_value_, and both
                                       (write_grad_clipping)

Needs PyPI's torch, onnx, onnxscript, transformers, diffusers and timm (not
Debian packages), e.g.

    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install torch onnx onnxscript transformers diffusers timm
    /tmp/tv/bin/python test/Import/Inputs/gen_torch_models.py

The tests read the committed files and need neither network nor PyTorch.
"""
import math
import os

import numpy as np
import onnx
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB, D, HEADS, LAYERS, SEQ, BATCH, CLASSES = 50, 32, 4, 2, 8, 4, 3


class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(SEQ, D)
        self.ln = nn.LayerNorm(D)
        layer = nn.TransformerEncoderLayer(D, HEADS, 2 * D, dropout=0.0,
                                           activation="gelu",
                                           batch_first=True)
        self.enc = nn.TransformerEncoder(layer, LAYERS,
                                         enable_nested_tensor=False)
        self.head = nn.Linear(D, CLASSES)
        self.register_buffer("positions", torch.arange(SEQ))

    def forward(self, ids):
        h = self.ln(self.tok(ids) + self.pos(self.positions))
        return self.head(self.enc(h)[:, 0])


class TinyGpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        layer = nn.TransformerEncoderLayer(D, HEADS, 2 * D, dropout=0.0,
                                           activation="gelu",
                                           batch_first=True)
        self.enc = nn.TransformerEncoder(layer, LAYERS,
                                         enable_nested_tensor=False)
        self.head = nn.Linear(D, VOCAB)
        self.register_buffer(
            "causal", nn.Transformer.generate_square_subsequent_mask(SEQ))

    def forward(self, ids):
        h = self.enc(self.tok(ids), mask=self.causal, is_causal=True)
        return self.head(h)


class PadBert(TinyBert):
    """TinyBert with the padding mask of its ids (id 0 is padding)."""

    def forward(self, ids):
        h = self.ln(self.tok(ids) + self.pos(self.positions))
        return self.head(self.enc(h, src_key_padding_mask=(ids == 0))[:, 0])


class HfAttention(nn.Module):
    """One self-attention layer masked as Hugging Face's BERT masks: an
    integer attention_mask (1 = token, 0 = padding) becomes an additive
    bias (1 - m) * float32 min on the scores."""

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.q, self.k, self.v = (nn.Linear(D, D) for _ in range(3))
        self.out = nn.Linear(D, D)
        self.head = nn.Linear(D, CLASSES)

    def forward(self, ids, mask):
        h = self.tok(ids)
        b, s, _ = h.shape

        def heads(x):
            return x.view(b, s, HEADS, D // HEADS).transpose(1, 2)

        q, k, v = heads(self.q(h)), heads(self.k(h)), heads(self.v(h))
        bias = (1.0 - mask[:, None, None, :].to(torch.float32)) * \
            torch.finfo(torch.float32).min
        scores = q @ k.transpose(-1, -2) / (D // HEADS) ** 0.5 + bias
        ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, D)
        return self.head(self.out(ctx)[:, 0])


def export_both(model, args, stem, input_names=("ids",)):
    names = dict(input_names=list(input_names), output_names=["logits"])
    torch.onnx.export(model, args, os.path.join(HERE, stem + "_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    dynamo = os.path.join(HERE, stem + "_dynamo.onnx")
    for stale in (dynamo, dynamo + ".data"):
        if os.path.exists(stale):
            os.remove(stale)
    torch.onnx.export(model, args, dynamo, dynamo=True, opset_version=18,
                      external_data=True, **names)


class HfLogits(nn.Module):
    """A Hugging Face model called with (ids, attention mask), returning its
    logits; the model is the attribute `name`, as its weights are named."""

    def __init__(self, model, name, **kwargs):
        super().__init__()
        self.name = name
        setattr(self, name, model)
        self.kwargs = kwargs

    def forward(self, ids, mask):
        model = getattr(self, self.name)
        return model(input_ids=ids, attention_mask=mask, **self.kwargs).logits


class HfHidden(nn.Module):
    """A Hugging Face encoder called with (ids, attention mask), returning
    its last hidden states."""

    def __init__(self, model):
        super().__init__()
        self.t5 = model

    def forward(self, ids, mask):
        return self.t5(input_ids=ids, attention_mask=mask).last_hidden_state


def export_hf(model, stem, ids, mask, opset23=False):
    """Saves the logits of `model` (HfLogits) for ids and mask and exports it
    with both exporters (one file each: the weights are small); with
    `opset23`, also with the torch.export-based one at opset 23, which
    writes the attention as ONNX's Attention (stem_opset23.onnx)."""
    with torch.no_grad():
        np.save(os.path.join(HERE, stem + "_logits.npy"),
                model(ids, mask).numpy())
    names = dict(input_names=["ids", "mask"], output_names=["logits"])
    torch.onnx.export(model, (ids, mask),
                      os.path.join(HERE, stem + "_script.onnx"), dynamo=False,
                      opset_version=17, **names)
    torch.onnx.export(model, (ids, mask),
                      os.path.join(HERE, stem + "_dynamo.onnx"), dynamo=True,
                      opset_version=18, external_data=False, **names)
    if opset23:
        torch.onnx.export(model, (ids, mask),
                          os.path.join(HERE, stem + "_opset23.onnx"),
                          dynamo=True, opset_version=23, external_data=False,
                          **names)


def hf_bert():
    """The tiny BertForSequenceClassification of hf_bert_*.onnx (seed 5),
    in eval mode."""
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(5)
    config = BertConfig(vocab_size=VOCAB, hidden_size=D,
                        num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                        intermediate_size=2 * D, max_position_embeddings=16,
                        num_labels=CLASSES, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0)
    return BertForSequenceClassification(config).eval()


def export_hf_bert(ids, mask):
    """Hugging Face's BERT classifier as users export it."""
    export_hf(HfLogits(hf_bert(), "bert").eval(), "hf_bert", ids, mask,
              opset23=True)


class HfWithLoss(nn.Module):
    """A Hugging Face model called with (ids, attention mask, labels),
    returning its loss, then its logits (as `model(..., labels=labels)`
    does); the model is the attribute `name`, as its weights are named."""

    def __init__(self, model, name, **kwargs):
        super().__init__()
        self.name = name
        setattr(self, name, model)
        self.kwargs = kwargs

    def forward(self, ids, mask, labels):
        out = getattr(self, self.name)(input_ids=ids, attention_mask=mask,
                                       labels=labels, **self.kwargs)
        return out.loss, out.logits


def write_hf_bert_loss():
    """hf_bert's model (its equal params perturbed) called with its
    labels, exported with both exporters with its outputs (loss, logits)
    and inputs ids, mask and labels (hf_bert_loss_script.onnx,
    hf_bert_loss_dynamo.onnx; graph-loss-hf.test): its loss is PyTorch's
    CrossEntropyLoss of the logits, so export_and_train_classifier's
    training, at lr 0.1, gives its losses (hf_bert_loss_torch_log.csv)."""
    bert = hf_bert()
    # Distinct biases and norms: the torch.export-based exporter stores
    # equal initializers once, one param they would all share.
    perturb_equal_params(bert)
    export_and_train_with_labels(HfWithLoss(bert, "bert").eval(),
                                 "hf_bert_loss")


def export_and_train_with_labels(model, stem, strip=False):
    """`model` (ids, mask, labels) -> (loss, logits) exported with both
    exporters on the first 4 rows of hf_bert_tokens.npz (<stem>_script.onnx,
    <stem>_dynamo.onnx, its nodes' metadata stripped when `strip`), and
    PyTorch's training of it by train_token_rows_and_log at lr 0.1
    (<stem>_torch_log.csv)."""
    data = np.load(os.path.join(HERE, "hf_bert_tokens.npz"))
    rows = slice(0, 4)
    args = (torch.tensor(data["ids"][rows]),
            torch.tensor(data["mask"][rows]).long(),
            torch.tensor(data["labels"][rows]).long())
    names = dict(input_names=["ids", "mask", "labels"],
                 output_names=["loss", "logits"])
    torch.onnx.export(model, args, os.path.join(HERE, stem + "_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    path = os.path.join(HERE, stem + "_dynamo.onnx")
    torch.onnx.export(model, args, path, dynamo=True, opset_version=18,
                      external_data=False, **names)
    if strip:
        strip_node_metadata(path)
    train_token_rows_and_log(
        model, lambda r: model(torch.tensor(data["ids"][r]),
                               torch.tensor(data["mask"][r]).long(),
                               torch.tensor(data["labels"][r]).long())[1],
        data["labels"], stem + "_torch_log.csv", lr=0.1)


def write_hf_albert_loss():
    """Hugging Face's AlbertForSequenceClassification (a tiny config: one
    layer's weights shared by its 2 layers, an embedding of 16 mapped to
    32) called with its labels (as write_hf_bert_loss's BERT), exported by
    both exporters (hf_albert_loss_script.onnx, hf_albert_loss_dynamo.onnx,
    without the nodes' metadata; dedup-params.test): each folds the shared
    weights' transposes at both calls of the layer, and PyTorch trains each
    weight once (hf_albert_loss_torch_log.csv, lr 0.1)."""
    from transformers import AlbertConfig, AlbertForSequenceClassification

    torch.manual_seed(13)
    config = AlbertConfig(vocab_size=VOCAB, embedding_size=16, hidden_size=D,
                          num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                          intermediate_size=2 * D, max_position_embeddings=16,
                          num_labels=CLASSES, hidden_dropout_prob=0.0,
                          attention_probs_dropout_prob=0.0,
                          classifier_dropout_prob=0.0)
    albert = AlbertForSequenceClassification(config).eval()
    perturb_equal_params(albert)
    export_and_train_with_labels(HfWithLoss(albert, "albert").eval(),
                                 "hf_albert_loss", strip=True)


def strip_node_metadata(path, keep=()):
    """The ONNX model `path` without its nodes' metadata (their Python stack
    traces, most of a torch.export-based export), but for the entries whose
    keys are in `keep`, which the importer reads (pkg.torch.onnx.fx_node:
    an embedding's padding_idx)."""
    model = onnx.load(path)
    for node in model.graph.node:
        kept = [(e.key, e.value) for e in node.metadata_props if e.key in keep]
        del node.metadata_props[:]
        for key, value in kept:
            node.metadata_props.add(key=key, value=value)
    onnx.save(model, path)


def hf_gpt2():
    """The GPT2LMHeadModel of hf_gpt2_*.onnx (seed 6): its output
    projection is tied to its token embedding."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(6)
    config = GPT2Config(vocab_size=VOCAB, n_positions=16, n_embd=D,
                        n_layer=LAYERS, n_head=HEADS, resid_pdrop=0.0,
                        embd_pdrop=0.0, attn_pdrop=0.0)
    return HfLogits(GPT2LMHeadModel(config).eval(), "gpt2",
                    use_cache=False).eval()


def export_hf_gpt2(ids, mask):
    """Hugging Face's causal language model with its attention mask."""
    export_hf(hf_gpt2(), "hf_gpt2", ids, mask, opset23=True)


def write_hf_gpt2_tied():
    """hf_gpt2's model with distinct norm weights and biases (a fresh
    model's are ones and zeros, which the exporter stores once, one param
    that every norm would share), exported by the torch.export-based
    exporter with its weights as external data (its output projection is
    the transpose of its token embedding, one param) and by the TorchScript
    exporter (the transpose an initializer of its own), its losses over
    train_lm_and_log's 10 SGD steps and its logits for bert_pad_ids.npy and
    hf_attn_mask.npy after them: PyTorch's training of the model that
    amp-export-onnx writes back to ONNX (test/Import/export.test)."""
    gpt2 = hf_gpt2()
    with torch.no_grad():
        for name, p in gpt2.named_parameters():
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                p.normal_(1.0, 0.1)
            elif name.endswith("bias"):
                p.normal_(0.0, 0.02)
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    mask = torch.tensor(np.load(os.path.join(HERE, "hf_attn_mask.npy")))
    names = dict(input_names=["ids", "mask"], output_names=["logits"])
    torch.onnx.export(gpt2, (ids, mask),
                      os.path.join(HERE, "hf_gpt2_tied.onnx"), dynamo=True,
                      opset_version=18, external_data=True, **names)
    torch.onnx.export(gpt2, (ids, mask),
                      os.path.join(HERE, "hf_gpt2_tied_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    train_lm_and_log(gpt2, "hf_gpt2_tied_torch_log.csv")
    with torch.no_grad():
        np.save(os.path.join(HERE, "hf_gpt2_tied_trained_logits.npy"),
                gpt2(ids, mask).numpy())


def tiny_decoder_config(**extra):
    """The config keywords of the tiny Llama-like decoders (hf_llama,
    write_hf_mixtral_loss), with `extra`."""
    return dict(vocab_size=VOCAB, hidden_size=D, intermediate_size=2 * D,
                num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                num_key_value_heads=HEADS // 2, max_position_embeddings=16,
                attention_dropout=0.0, tie_word_embeddings=False, **extra)


def like_trained(model, scaled=("q_proj.weight", "k_proj.weight")):
    """Makes a fresh decoder's weights differ as a trained model's do. The
    exporters store equal initializers once: a fresh model's RMSNorm
    weights (all ones) would become one param that every norm shares.
    Weights ending in `scaled` become 10 times the initial ones: query and
    key weights so make the attention as peaked as a trained model's (at
    the initial 0.02 it is near uniform, and the rotary embedding barely
    changes the logits)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.normal_(1.0, 0.1)
            if name.endswith(scaled):
                p.mul_(10.0)


def hf_llama():
    """The LlamaForCausalLM of hf_llama_*.onnx (seed 7), in eval mode,
    returning its logits (HfLogits)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(7)
    config = LlamaConfig(**tiny_decoder_config())
    llama = HfLogits(LlamaForCausalLM(config).eval(), "llama",
                     use_cache=False).eval()
    like_trained(llama)
    return llama


def write_hf_llama():
    """Hugging Face's LlamaForCausalLM (RMSNorm, rotary embeddings, SwiGLU,
    grouped-query attention) as users export it, its logits for
    bert_pad_ids.npy and hf_attn_mask.npy, and PyTorch's losses over 10
    SGD steps (lr 0.1, momentum 0.9) on the first 40 rows of
    hf_gpt2_tokens.npz in order, 4 per step, as amp-run --shuffle=false
    trains the imported model."""
    llama = hf_llama()
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    mask = torch.tensor(np.load(os.path.join(HERE, "hf_attn_mask.npy")))
    # At opset 23 the attention is ONNX's Attention (after Hugging Face's
    # repeat_kv) and RMSNorm RMSNormalization.
    export_hf(llama, "hf_llama", ids, mask, opset23=True)
    train_lm_and_log(llama, "hf_llama_torch_log.csv")


def lm_tokens_with_labels():
    """hf_llama_lm_tokens.npz's arrays (ids, mask, labels), written first:
    hf_gpt2_tokens.npz's ids and mask, and as labels the ids, -100 where
    the mask is 0. Shifted, those are hf_gpt2_tokens.npz's labels."""
    data = np.load(os.path.join(HERE, "hf_gpt2_tokens.npz"))
    labels = np.where(data["mask"] == 1, data["ids"], -100)
    shifted = np.concatenate([labels[:, 1:], np.full_like(labels[:, :1],
                                                          -100)], axis=1)
    assert (shifted == data["labels"]).all()
    # 48 rows: the 40 that train and 8 to evaluate.
    tokens = dict(ids=data["ids"][:48], mask=data["mask"][:48],
                  labels=labels[:48])
    np.savez(os.path.join(HERE, "hf_llama_lm_tokens.npz"), **tokens)
    return tokens


def export_and_train_lm_with_labels(model, stem, tokens):
    """A causal LM `model` (ids, mask, labels) -> (loss, logits) exported
    with both exporters on the first 4 rows of `tokens`
    (<stem>_script.onnx, <stem>_dynamo.onnx), then trained by PyTorch as
    amp-run --shuffle=false trains its import: 10 SGD steps (lr 0.1,
    momentum 0.9) on rows 0..39 in order, 4 per step. Returns the losses."""
    args = tuple(torch.tensor(a[:4]) for a in
                 (tokens["ids"], tokens["mask"], tokens["labels"]))
    names = dict(input_names=["ids", "mask", "labels"],
                 output_names=["loss", "logits"])
    torch.onnx.export(model, args, os.path.join(HERE, stem + "_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    torch.onnx.export(model, args, os.path.join(HERE, stem + "_dynamo.onnx"),
                      dynamo=True, opset_version=18, external_data=False,
                      **names)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for step in range(1, 11):
        rows = slice(4 * (step - 1), 4 * step)
        loss = model(*(torch.tensor(tokens[k][rows]) for k in
                       ("ids", "mask", "labels")))[0]
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def write_hf_llama_lm_loss():
    """hf_llama's model called with its labels, as causal language models
    are fine-tuned: Hugging Face's loss pads the labels with -100 (an INT64
    Pad), shifts them by one and takes the cross-entropy of every position
    that is no -100. Exported with both exporters with inputs ids, mask and
    labels and outputs (loss, logits) (hf_llama_lm_loss_script.onnx,
    hf_llama_lm_loss_dynamo.onnx; graph-loss-hf.test), on the rows of
    hf_llama_lm_tokens.npz (lm_tokens_with_labels), whose shifted labels
    are hf_gpt2_tokens.npz's, so PyTorch's training of the model is
    hf_llama_torch_log.csv's (checked here)."""
    tokens = lm_tokens_with_labels()
    llama = hf_llama().llama
    model = HfWithLoss(llama, "llama", use_cache=False).eval()
    losses = export_and_train_lm_with_labels(model, "hf_llama_lm_loss",
                                             tokens)
    with open(os.path.join(HERE, "hf_llama_torch_log.csv")) as log:
        expected = [float(line.split(",")[1]) for line in log.readlines()[1:]]
    for step, (loss, want) in enumerate(zip(losses, expected), 1):
        assert abs(loss - want) <= 1e-6 * want, (step, loss, want)


def write_hf_mixtral_loss():
    """Hugging Face's MixtralForCausalLM, a mixture of experts (4 experts,
    2 per token; seed 17), with transformers' batched_mm experts (each
    token's 2 experts' weights gathered from the [4, ...] expert params and
    applied by bmm, with static shapes), called with its labels as
    write_hf_llama_lm_loss's Llama, exported with both exporters
    (hf_mixtral_loss_script.onnx, hf_mixtral_loss_dynamo.onnx without the
    nodes' metadata; hf-moe.test) and trained by PyTorch on
    hf_llama_lm_tokens.npz (hf_mixtral_torch_log.csv)."""
    from transformers import MixtralConfig, MixtralForCausalLM

    tokens = lm_tokens_with_labels()
    torch.manual_seed(17)
    config = MixtralConfig(**tiny_decoder_config(
        num_local_experts=4, num_experts_per_tok=2, sliding_window=None,
        experts_implementation="batched_mm"))
    mixtral = MixtralForCausalLM(config).eval()
    # Router weights 10 times the initial ones pick experts as decisively as
    # a trained router does.
    like_trained(mixtral, scaled=("q_proj.weight", "k_proj.weight",
                                  "gate.weight"))
    perturb_equal_params(mixtral)
    model = HfWithLoss(mixtral, "mixtral", use_cache=False).eval()
    losses = export_and_train_lm_with_labels(model, "hf_mixtral_loss", tokens)
    strip_node_metadata(os.path.join(HERE, "hf_mixtral_loss_dynamo.onnx"))
    with open(os.path.join(HERE, "hf_mixtral_torch_log.csv"), "w") as log:
        log.write("step,loss\n")
        for step, loss in enumerate(losses, 1):
            log.write(f"{step},{loss:.9g}\n")


def train_lm_and_log(model, log_name):
    """PyTorch's losses of the language model `model(ids, mask)` over 10 SGD
    steps (lr 0.1, momentum 0.9) on the first 40 rows of hf_gpt2_tokens.npz
    in order, 4 per step (as amp-run --shuffle=false trains its import),
    written to `log_name`."""
    data = np.load(os.path.join(HERE, "hf_gpt2_tokens.npz"))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    with open(os.path.join(HERE, log_name), "w") as log:
        log.write("step,loss\n")
        for step in range(1, 11):
            rows = slice(4 * (step - 1), 4 * step)
            logits = model(torch.tensor(data["ids"][rows]),
                           torch.tensor(data["mask"][rows]))
            loss = nn.functional.cross_entropy(
                logits.reshape(-1, VOCAB),
                torch.tensor(data["labels"][rows]).reshape(-1).long(),
                ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


def write_hf_t5():
    """Hugging Face's T5EncoderModel, whose attention bias is looked up by
    relative position buckets that the TorchScript exporter computes from
    constants (Sub, Abs, Log, Div, Cast, Min, Where), exported as users do
    (the torch.export-based exporter fails on it in torch 2.15), and its
    hidden states for bert_pad_ids.npy and hf_attn_mask.npy."""
    from transformers import T5Config, T5EncoderModel

    torch.manual_seed(8)
    config = T5Config(vocab_size=VOCAB, d_model=D, d_kv=D // HEADS,
                      d_ff=2 * D, num_layers=LAYERS, num_heads=HEADS,
                      relative_attention_num_buckets=8,
                      relative_attention_max_distance=16, dropout_rate=0.0)
    t5 = HfHidden(T5EncoderModel(config).eval()).eval()
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    mask = torch.tensor(np.load(os.path.join(HERE, "hf_attn_mask.npy")))
    with torch.no_grad():
        np.save(os.path.join(HERE, "hf_t5_hidden.npy"), t5(ids, mask).numpy())
    torch.onnx.export(t5, (ids, mask), os.path.join(HERE, "hf_t5_script.onnx"),
                      dynamo=False, opset_version=17,
                      input_names=["ids", "mask"], output_names=["hidden"])


class HfPixels(nn.Module):
    """A Hugging Face image classifier called with pixel values, returning
    its logits."""

    def __init__(self, model):
        super().__init__()
        self.vision = model

    def forward(self, x):
        return self.vision(pixel_values=x).logits


def write_hf_vision():
    """Hugging Face's MobileNetV2 (TensorFlow-style "same" padding, its pads
    computed from constants with Transpose and Reshape) and Swin (shifted
    window attention) image classifiers, tiny random configs, exported by
    the TorchScript exporter (the torch.export-based one fails on Swin in
    torch 2.15), and their logits for hf_vision_x.npy."""
    from transformers import (MobileNetV2Config,
                              MobileNetV2ForImageClassification, SwinConfig,
                              SwinForImageClassification)

    torch.manual_seed(11)
    x = torch.randn(2, 3, 32, 32)
    np.save(os.path.join(HERE, "hf_vision_x.npy"), x.numpy())
    models = {
        "hf_mobilenet": MobileNetV2ForImageClassification(MobileNetV2Config(
            image_size=32, depth_multiplier=0.25, num_labels=3)),
        "hf_swin": SwinForImageClassification(SwinConfig(
            image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
            num_heads=[2, 4], window_size=4, num_labels=3)),
    }
    for stem, model in models.items():
        # Variance-preserving (He) convolution weights, and BatchNorm
        # statistics of a trained model: with Hugging Face's initialization
        # (normal, std 0.02) MobileNetV2's logits vanish (1e-27) through its
        # 17 blocks, and with PyTorch's default they hardly depend on the
        # image.
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.normal_(0.0, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.normal_(0.0, 0.1)
        model = HfPixels(model.eval()).eval()
        with torch.no_grad():
            np.save(os.path.join(HERE, stem + "_logits.npy"), model(x).numpy())
        torch.onnx.export(model, (x,), os.path.join(HERE, stem + ".onnx"),
                          dynamo=False, opset_version=17, input_names=["x"],
                          output_names=["logits"])


def write_hf_roberta():
    """Hugging Face's RobertaForSequenceClassification, which computes its
    position ids from the ids (a CumSum of the padding mask, integer Mul and
    Add at run time) and gathers its token-type buffer at them: its logits
    for bert_pad_ids.npy and hf_attn_mask.npy from both exporters, and
    PyTorch's losses over 10 SGD steps (lr 0.03, momentum 0.9) on the first
    40 rows of hf_bert_tokens.npz in order, 4 per step (hf-roberta.test)."""
    from transformers import RobertaConfig, RobertaForSequenceClassification

    torch.manual_seed(13)
    # Padding id 0, as the token files pad: positions count from 1 over the
    # tokens, and padding takes position 0.
    config = RobertaConfig(vocab_size=VOCAB, hidden_size=D,
                           num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                           intermediate_size=2 * D, max_position_embeddings=16,
                           type_vocab_size=1, pad_token_id=0,
                           num_labels=CLASSES, hidden_dropout_prob=0.0,
                           attention_probs_dropout_prob=0.0)
    roberta = HfLogits(RobertaForSequenceClassification(config), "roberta")
    # Equal initializers (LayerNorm weights and biases) are stored once by
    # the exporters; perturbed, as a trained model's are, they stay apart.
    # Query and key weights 10 times the initial ones make the attention as
    # peaked as a trained model's, position embeddings of unit scale make
    # the positions show, and a classifier 10 times the initial one gives
    # logits of order one.
    with torch.no_grad():
        for name, p in roberta.named_parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn_like(p) * 0.1)
            if name.endswith(("query.weight", "key.weight",
                              "classifier.dense.weight",
                              "classifier.out_proj.weight")):
                p.mul_(10.0)
            if name.endswith("position_embeddings.weight"):
                p.normal_(0.0, 1.0)
    export_and_train_classifier(roberta.eval(), "hf_roberta", lr=0.03)


def export_and_train_classifier(model, stem, lr):
    """Exports a Hugging Face sequence classifier (HfLogits) with its logits
    for bert_pad_ids.npy and hf_attn_mask.npy (export_hf), and writes
    PyTorch's losses over 10 SGD steps (momentum 0.9) on the first 40 rows
    of hf_bert_tokens.npz in order, 4 per step, as amp-run --shuffle=false
    trains the imported model."""
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    mask = torch.tensor(np.load(os.path.join(HERE, "hf_attn_mask.npy")))
    export_hf(model, stem, ids, mask)
    data = np.load(os.path.join(HERE, "hf_bert_tokens.npz"))
    train_token_rows_and_log(
        model, lambda rows: model(torch.tensor(data["ids"][rows]),
                                  torch.tensor(data["mask"][rows]).long()),
        data["labels"], stem + "_torch_log.csv", lr)


def train_token_rows_and_log(model, logits_of, labels, path, lr):
    """10 SGD steps (momentum 0.9) of `model` on rows 0..39 in order, 4 per
    step, as amp-run --shuffle=false trains the imported model:
    logits_of(rows) against labels[rows]; each step's loss in `path`."""
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    with open(os.path.join(HERE, path), "w") as log:
        log.write("step,loss\n")
        for step in range(1, 11):
            rows = slice(4 * (step - 1), 4 * step)
            loss = nn.functional.cross_entropy(
                logits_of(rows), torch.tensor(labels[rows]).long())
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


def perturb_equal_params(model):
    """Adds noise (std 0.1) to every param whose elements are all equal, as
    trained ones are not (the exporters store such initializers, all zeros
    or all ones, once)."""
    with torch.no_grad():
        for p in model.parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn_like(p) * 0.1)


def write_hf_opt():
    """Hugging Face's OPTForSequenceClassification: positions from the
    attention mask at run time (CumSum, integer Mul and Sub), and the score
    of each row's last token, found with ArgMax of the positions times the
    padding mask and picked with Gather (TorchScript) or GatherND
    (torch.export) of the run-time scores (hf-opt.test)."""
    from transformers import OPTConfig, OPTForSequenceClassification

    torch.manual_seed(14)
    config = OPTConfig(vocab_size=VOCAB, hidden_size=D,
                       num_hidden_layers=LAYERS, ffn_dim=2 * D,
                       num_attention_heads=HEADS, max_position_embeddings=16,
                       word_embed_proj_dim=D, pad_token_id=0,
                       num_labels=CLASSES, dropout=0.0, attention_dropout=0.0)
    opt = HfLogits(OPTForSequenceClassification(config), "opt")
    # As write_hf_roberta: distinct LayerNorm initializers, peaked
    # attention, visible positions, and scores of order one.
    with torch.no_grad():
        for name, p in opt.named_parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn_like(p) * 0.1)
            if name.endswith(("q_proj.weight", "k_proj.weight",
                              "score.weight")):
                p.mul_(10.0)
            if name.endswith("embed_positions.weight"):
                p.normal_(0.0, 1.0)
    export_and_train_classifier(opt.eval(), "hf_opt", lr=0.01)


def write_hf_deberta_v2():
    """Hugging Face's DebertaV2ForSequenceClassification with relative
    attention (content-to-position and position-to-content), which gathers
    its attention scores at relative positions computed at run time
    (GatherElements of run-time data, Clip of INT64) from log buckets of
    Sign and Ceil of constants (hf-deberta-v2.test)."""
    from transformers import DebertaV2Config, DebertaV2ForSequenceClassification

    torch.manual_seed(15)
    config = DebertaV2Config(vocab_size=VOCAB, hidden_size=D,
                             num_hidden_layers=LAYERS,
                             num_attention_heads=HEADS,
                             intermediate_size=2 * D,
                             max_position_embeddings=16, pad_token_id=0,
                             num_labels=CLASSES, hidden_dropout_prob=0.0,
                             attention_probs_dropout_prob=0.0,
                             relative_attention=True, position_buckets=8,
                             pos_att_type=["p2c", "c2p"])
    deberta = HfLogits(DebertaV2ForSequenceClassification(config), "deberta")
    # As write_hf_roberta: distinct LayerNorm initializers, peaked
    # attention, and logits of order one.
    with torch.no_grad():
        for name, p in deberta.named_parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn_like(p) * 0.1)
            if name.endswith(("query_proj.weight", "key_proj.weight",
                              "pooler.dense.weight", "classifier.weight")):
                p.mul_(10.0)
    export_and_train_classifier(deberta.eval(), "hf_deberta_v2", lr=0.01)


def write_hf_vit():
    """Hugging Face's ViTForImageClassification on the [16, 1, 8, 8] images of
    bn_cnn_x.npy (4 patches of 4 x 4 and the class token, which the
    TorchScript exporter writes as Expand of the parameter), exported and
    trained by export_and_train (test/Import/hf-vit.test)."""
    from transformers import ViTConfig, ViTForImageClassification

    torch.manual_seed(12)
    vit = ViTForImageClassification(ViTConfig(
        image_size=8, patch_size=4, num_channels=1, hidden_size=32,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        num_labels=4, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0))
    # A class token of the scale of the patch embeddings (Hugging Face
    # initializes it to std 0.02), so that its training shows in the loss;
    # biases and LayerNorm weights perturbed as trained ones are (the
    # exporter stores equal initializers, all zeros or all ones, once).
    with torch.no_grad():
        vit.vit.embeddings.cls_token.normal_(0.0, 1.0)
    perturb_equal_params(vit)
    export_and_train(HfPixels(vit.train()), "hf_vit", images=True)


def write_hf_dinov2():
    """Hugging Face's Dinov2ForImageClassification on the [16, 1, 8, 8] images
    of bn_cnn_x.npy, exported and trained by export_and_train
    (test/Import/hf-dinov2.test). DINOv2 always interpolates its position
    embeddings to the image's grid, whose side the TorchScript exporter
    writes as Pow(num_positions, 0.5) of constants."""
    from transformers import Dinov2Config, Dinov2ForImageClassification

    torch.manual_seed(61)
    model = Dinov2ForImageClassification(Dinov2Config(
        image_size=8, patch_size=4, num_channels=1, hidden_size=32,
        num_hidden_layers=2, num_attention_heads=4, mlp_ratio=2,
        num_labels=4, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0))
    # The class token of the patches' scale, as write_hf_vit's.
    with torch.no_grad():
        model.dinov2.embeddings.cls_token.normal_(0.0, 1.0)
    perturb_equal_params(model)
    export_and_train(HfPixels(model.train()), "hf_dinov2", images=True,
                     logits=True)


def write_padded_tokens():
    """Rows of ids and attention mask, as a tokenizer pads a batch, then the
    label: amp-run --data for a model with both inputs."""
    rng = np.random.default_rng(2)
    ids = rng.integers(1, VOCAB, (600, SEQ))
    lengths = rng.integers(2, SEQ + 1, 600)
    mask = (np.arange(SEQ)[None, :] < lengths[:, None]).astype(np.int64)
    ids *= mask
    labels = ids[:, 0] % CLASSES
    np.savetxt(os.path.join(HERE, "hf_bert_tokens.csv"),
               np.concatenate([ids, mask, labels[:, None]], axis=1),
               fmt="%d", delimiter=",")
    np.savez_compressed(os.path.join(HERE, "hf_bert_tokens.npz"), ids=ids,
                        mask=mask.astype(bool), labels=labels)
    np.savez(os.path.join(HERE, "hf_bert_tokens_stored.npz"), ids=ids[:100],
             mask=mask[:100], labels=labels[:100].astype(np.int32))


def write_next_tokens():
    """Language-model data for the causal model: each token's successor is
    fixed (a random permutation of the vocabulary, then one jump in ten to
    a random token), so there is something to learn and something not."""
    rng = np.random.default_rng(3)
    successor = rng.permutation(VOCAB)
    text = [int(rng.integers(VOCAB))]
    for _ in range(2999):
        jump = rng.random() < 0.1
        text.append(int(rng.integers(VOCAB)) if jump else
                    int(successor[text[-1]]))
    text = np.array(text, dtype=np.int64)
    starts = rng.integers(0, len(text) - SEQ - 1, 300)
    ids = np.stack([text[s:s + SEQ] for s in starts])
    labels = np.stack([text[s + 1:s + SEQ + 1] for s in starts])
    np.savetxt(os.path.join(HERE, "gpt_tiny_tokens.csv"),
               np.concatenate([ids, labels], axis=1), fmt="%d",
               delimiter=",")
    np.savez_compressed(os.path.join(HERE, "gpt_tiny_tokens.npz"), ids=ids,
                        labels=labels)
    # The same windows padded to 2..8 tokens, as a tokenizer pads a batch:
    # a position's label is the next token, or -100 (PyTorch's
    # ignore_index) where the next position is padding.
    lengths = rng.integers(2, SEQ + 1, len(ids))
    mask = (np.arange(SEQ)[None, :] < lengths[:, None]).astype(np.int64)
    next_real = np.arange(SEQ)[None, :] + 1 < lengths[:, None]
    np.savez_compressed(os.path.join(HERE, "hf_gpt2_tokens.npz"),
                        ids=ids * mask, mask=mask,
                        labels=np.where(next_real, labels, -100))


# Seq2seq rows: a source of 2..SEQ-1 tokens in [3, VOCAB), then the end
# token 2, then padding 1 (BART's and, as configured here, T5's ids); its
# target, TARGET positions labelled with each source token's image under a
# fixed permutation, then 2, then -100 (PyTorch's ignore_index).
TARGET = 6


def write_seq2seq_tokens():
    """Rows of source ids, attention mask and target labels (hf_s2s_tokens.npz)
    for the encoder-decoders, which take their labels as an input."""
    rng = np.random.default_rng(4)
    image = rng.permutation(VOCAB - 3) + 3
    rows = 300
    lengths = rng.integers(2, SEQ, rows)
    ids = rng.integers(3, VOCAB, (rows, SEQ))
    pos = np.arange(SEQ)[None, :]
    ids = np.where(pos < lengths[:, None], ids,
                   np.where(pos == lengths[:, None], 2, 1))
    mask = (pos <= lengths[:, None]).astype(np.int64)
    tpos = np.arange(TARGET)[None, :]
    labels = np.where(tpos < lengths[:, None], image[ids[:, :TARGET] - 3],
                      np.where(tpos == lengths[:, None], 2, -100))
    np.savez_compressed(os.path.join(HERE, "hf_s2s_tokens.npz"), ids=ids,
                        mask=mask, labels=labels)
    # The first 4 rows, for amp-run --function forward --input.
    for name, array in (("ids", ids), ("mask", mask), ("labels", labels)):
        np.save(os.path.join(HERE, "hf_s2s_" + name + ".npy"), array[:4])


class HfSeq2Seq(nn.Module):
    """A Hugging Face encoder-decoder called with (ids, attention mask,
    labels), which it shifts right into the decoder's ids, returning its
    logits; the model is the attribute `name`."""

    def __init__(self, model, name):
        super().__init__()
        self.name = name
        setattr(self, name, model)

    def forward(self, ids, mask, labels):
        model = getattr(self, self.name)
        return model(input_ids=ids, attention_mask=mask, labels=labels).logits


def export_and_train_seq2seq(model, stem, lr, dynamo=True):
    """Exports an HfSeq2Seq with the TorchScript exporter (and, with
    `dynamo`, the torch.export-based one) for the first 4 rows of
    hf_s2s_tokens.npz (hf_s2s_ids/mask/labels.npy), saves its logits for
    them, and writes PyTorch's
    losses over 10 SGD steps (momentum 0.9) on the first 40 rows in order,
    4 per step, as amp-run --shuffle=false trains the imported model."""
    data = np.load(os.path.join(HERE, "hf_s2s_tokens.npz"))
    batch = [torch.tensor(data[k][:4]) for k in ("ids", "mask", "labels")]
    with torch.no_grad():
        np.save(os.path.join(HERE, stem + "_logits.npy"),
                model(*batch).numpy())
    names = dict(input_names=["ids", "mask", "labels"],
                 output_names=["logits"])
    # Without constant folding the TorchScript exporter keeps the tied
    # output projection as a Transpose of the shared embedding (folded, it
    # is a copy that would train on its own) and the names of the buffers.
    torch.onnx.export(model, tuple(batch),
                      os.path.join(HERE, stem + "_script.onnx"), dynamo=False,
                      opset_version=17, do_constant_folding=False, **names)
    if dynamo:
        torch.onnx.export(model, tuple(batch),
                          os.path.join(HERE, stem + "_dynamo.onnx"),
                          dynamo=True, opset_version=18, external_data=False,
                          **names)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad],
                          lr=lr, momentum=0.9)
    with open(os.path.join(HERE, stem + "_torch_log.csv"), "w") as log:
        log.write("step,loss\n")
        for step in range(1, 11):
            rows = slice(4 * (step - 1), 4 * step)
            ids, mask, labels = (torch.tensor(data[k][rows])
                                 for k in ("ids", "mask", "labels"))
            loss = nn.functional.cross_entropy(
                model(ids, mask, labels).reshape(-1, VOCAB),
                labels.reshape(-1), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


def distinct_and_peaked(model, peaked):
    """As write_hf_roberta: initializers that differ (the exporters store
    equal ones once, which would then train as one param), and attention
    whose query and key weights (names ending in `peaked`) are 10 times the
    initial ones, as peaked as a trained model's."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn_like(p) * 0.1)
            if name.endswith(peaked):
                p.mul_(10.0)


def write_hf_seq2seq():
    """Hugging Face's BartForConditionalGeneration (both exporters),
    T5ForConditionalGeneration (the TorchScript exporter; the
    torch.export-based one fails on it in torch 2.15) and
    MBartForConditionalGeneration (the TorchScript exporter), called with
    their labels, which they shift right into the decoder's ids with two
    ScatterND (hf-seq2seq.test)."""
    from transformers import (BartConfig, BartForConditionalGeneration,
                              MBartConfig, MBartForConditionalGeneration,
                              T5Config, T5ForConditionalGeneration)

    write_seq2seq_tokens()
    torch.manual_seed(15)
    config = BartConfig(vocab_size=VOCAB, d_model=D, encoder_layers=1,
                        decoder_layers=1, encoder_attention_heads=HEADS,
                        decoder_attention_heads=HEADS, encoder_ffn_dim=2 * D,
                        decoder_ffn_dim=2 * D, max_position_embeddings=16,
                        pad_token_id=1, bos_token_id=0, eos_token_id=2,
                        decoder_start_token_id=2, dropout=0.0,
                        attention_dropout=0.0, activation_dropout=0.0)
    bart = HfSeq2Seq(BartForConditionalGeneration(config), "bart")
    distinct_and_peaked(bart, ("q_proj.weight", "k_proj.weight"))
    export_and_train_seq2seq(bart.eval(), "hf_bart", lr=0.05)
    torch.manual_seed(16)
    config = T5Config(vocab_size=VOCAB, d_model=D, d_kv=D // HEADS,
                      d_ff=2 * D, num_layers=1, num_decoder_layers=1,
                      num_heads=HEADS, relative_attention_num_buckets=8,
                      relative_attention_max_distance=16, dropout_rate=0.0,
                      pad_token_id=1, eos_token_id=2,
                      decoder_start_token_id=0)
    t5 = HfSeq2Seq(T5ForConditionalGeneration(config), "t5")
    # T5 does not scale its attention scores: its initial ones are peaked.
    distinct_and_peaked(t5, ())
    export_and_train_seq2seq(t5.eval(), "hf_t5s2s", lr=0.05, dynamo=False)
    # mBART starts the decoder with each row's last label that is no
    # padding (ReduceSum of INT64 to find it, GatherElements of the ids).
    torch.manual_seed(17)
    config = MBartConfig(vocab_size=VOCAB, d_model=D, encoder_layers=1,
                         decoder_layers=1, encoder_attention_heads=HEADS,
                         decoder_attention_heads=HEADS, encoder_ffn_dim=2 * D,
                         decoder_ffn_dim=2 * D, max_position_embeddings=16,
                         pad_token_id=1, bos_token_id=0, eos_token_id=2,
                         dropout=0.0, attention_dropout=0.0,
                         activation_dropout=0.0)
    mbart = HfSeq2Seq(MBartForConditionalGeneration(config), "mbart")
    distinct_and_peaked(mbart, ("q_proj.weight", "k_proj.weight"))
    export_and_train_seq2seq(mbart.eval(), "hf_mbart", lr=0.05, dynamo=False)


def write_hf_marian():
    """Hugging Face's MarianMTModel (as write_hf_seq2seq's, on its tokens),
    whose decoder starts with the padding token: its shared embedding has
    padding_idx 1, a row that PyTorch looks up but never trains. Both
    exporters (hf_marian_script.onnx, and hf_marian_dynamo.onnx with only
    the nodes' FX metadata, which records the padding_idx), and PyTorch's
    training (hf_marian_torch_log.csv). Its sinusoidal position tables are
    parameters with requires_grad=False, which PyTorch's optimizer is not
    given. hf-seq2seq.test."""
    from transformers import MarianConfig, MarianMTModel

    torch.manual_seed(18)
    config = MarianConfig(vocab_size=VOCAB, d_model=D, encoder_layers=1,
                          decoder_layers=1, encoder_attention_heads=HEADS,
                          decoder_attention_heads=HEADS,
                          encoder_ffn_dim=2 * D, decoder_ffn_dim=2 * D,
                          max_position_embeddings=16, pad_token_id=1,
                          eos_token_id=2, decoder_start_token_id=1,
                          dropout=0.0, attention_dropout=0.0,
                          activation_dropout=0.0)
    marian = HfSeq2Seq(MarianMTModel(config), "marian")
    distinct_and_peaked(marian, ("q_proj.weight", "k_proj.weight"))
    assert marian.marian.model.shared.padding_idx == 1
    export_and_train_seq2seq(marian.eval(), "hf_marian", lr=0.05)
    strip_node_metadata(os.path.join(HERE, "hf_marian_dynamo.onnx"),
                        keep=("pkg.torch.onnx.fx_node",))


class BnCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(),
            nn.Conv2d(6, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8),
            nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16),
                                  nn.ReLU(), nn.Linear(16, 4))

    def forward(self, x):
        return self.head(self.features(x))


def bn_cnn_model():
    """The BnCnn of bn_cnn_*.onnx (seed 5, running statistics drawn) and its
    16 rows of features and labels."""
    torch.manual_seed(5)
    model = BnCnn()
    # Running statistics other than PyTorch's fresh ones, so that the
    # imported buffers must carry them.
    with torch.no_grad():
        for bn in (model.features[1], model.features[4], model.head[1]):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)
    features = np.random.default_rng(4).integers(0, 17, (16, 64))
    labels = features[:, :16].sum(1) % 4
    return model, features, labels


def write_lr_schedules(names=None):
    """bn_cnn_eval.onnx trained by PyTorch on its 16 rows (one full batch per
    step) under each learning-rate schedule of test/Import/lr-schedule.test:
    transformers' schedules with warmup and torch.optim.lr_scheduler's, one
    log of the loss and the lr per schedule (lr_<name>_torch_log.csv); only
    those in `names` when given (transformers is imported only for its
    schedules)."""
    sched = torch.optim.lr_scheduler

    def hf(kind, *args):
        def make(o):
            import transformers
            return getattr(transformers,
                           f"get_{kind}_schedule_with_warmup")(o, *args)
        return make

    runs = {
        # name: (optimizer, steps, scheduler)
        "hf_cosine": ("adamw", 10, hf("cosine", 3, 10)),
        # Past num_training_steps (8) the lr stays 0.
        "hf_linear": ("adamw", 10, hf("linear", 2, 8)),
        # Plain SGD: its first step (lr 0) changes nothing, as a step that
        # loss scaling skips.
        "hf_linear_sgd": ("plain_sgd", 10, hf("linear", 3, 10)),
        "step": ("sgd", 10, lambda o: sched.StepLR(o, 3, gamma=0.5)),
        "exponential": ("sgd", 10,
                        lambda o: sched.ExponentialLR(o, gamma=0.8)),
        "linear_warmup": ("sgd", 10,
                          lambda o: sched.LinearLR(o, 1 / 3, total_iters=4)),
        "cosine_annealing": ("sgd", 6,
                             lambda o: sched.CosineAnnealingLR(
                                 o, 6, eta_min=0.01)),
        # 0 from step 9 on (total_iters 8).
        "polynomial": ("sgd", 10,
                       lambda o: sched.PolynomialLR(o, total_iters=8,
                                                    power=2.0)),
        "multistep": ("sgd", 10,
                      lambda o: sched.MultiStepLR(o, [2, 5, 6], gamma=0.5)),
        # A LinearLR warmup of 3 steps from 1/4, then MultiStepLR, whose
        # milestones count from the warmup's end.
        "multistep_warmup": ("sgd", 10, lambda o: sched.SequentialLR(
            o, [sched.LinearLR(o, 0.25, total_iters=3),
                sched.MultiStepLR(o, [2, 4], gamma=0.5)], milestones=[3])),
    }
    for name, (kind, steps, make_scheduler) in runs.items():
        if names is not None and name not in names:
            continue
        model, features, labels = bn_cnn_model()
        model.train()
        x = torch.tensor(features / 16.0,
                         dtype=torch.float32).reshape(16, 1, 8, 8)
        y = torch.tensor(labels)
        if kind == "adamw":
            opt = torch.optim.AdamW(model.parameters(), lr=0.01)
        elif kind == "plain_sgd":
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
        else:
            opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = make_scheduler(opt)
        with open(os.path.join(HERE, f"lr_{name}_torch_log.csv"), "w") as log:
            log.write("step,loss,lr\n")
            for step in range(1, steps + 1):
                lr = opt.param_groups[0]["lr"]
                opt.zero_grad()
                loss = nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                scheduler.step()
                log.write(f"{step},{loss.item():.9g},{lr:.9g}\n")


def train_clipped(name, clip, schedule=False):
    """bn_cnn_eval.onnx trained by PyTorch on its 16 rows (one full batch
    per step) with SGD(lr=0.1, momentum=0.9), clip(params) between
    backward() and step(), logging each step's loss, with `schedule` a
    StepLR(3, gamma=0.5) and the step's lr, and the norm clip returns when
    it returns one (name_torch_log.csv)."""
    model, features, labels = bn_cnn_model()
    model.train()
    x = torch.tensor(features / 16.0, dtype=torch.float32).reshape(16, 1, 8, 8)
    y = torch.tensor(labels)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(opt, 3, gamma=0.5)
    rows = []
    for step in range(1, 11):
        lr = opt.param_groups[0]["lr"]
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        norm = clip(list(model.parameters()))
        opt.step()
        if schedule:
            scheduler.step()
        rows.append([step, f"{loss.item():.9g}"] +
                    ([f"{lr:.9g}"] if schedule else []) +
                    ([f"{norm.item():.9g}"] if norm is not None else []))
    header = (["step", "loss"] + (["lr"] if schedule else []) +
              (["grad_norm"] if norm is not None else []))
    with open(os.path.join(HERE, f"{name}_torch_log.csv"), "w") as log:
        log.write(",".join(header) + "\n")
        for row in rows:
            log.write(",".join(str(v) for v in row) + "\n")


def write_grad_norm():
    """The gradient norm that clip_grad_norm_ returns besides the loss and
    the lr (grad_norm_torch_log.csv), as test/Import/lr-schedule.test trains
    it with clip-norm=1.2 and a StepLR schedule (the first steps are
    clipped, the later ones not)."""
    train_clipped("grad_norm", lambda params: nn.utils.clip_grad_norm_(
        params, max_norm=1.2), schedule=True)


def write_grad_clipping():
    """The clipping of test/Import/grad-clipping.test
    (clip_<name>_torch_log.csv): clip_grad_norm_ with norm_type inf
    (max_norm 0.15; the first step's norm is 0.28), 1 (20; 36.9) and 3
    (0.4; 0.74), clip_grad_value_(0.05) (about half of the first step's
    gradient elements are larger), and clip_grad_value_(0.1) then
    clip_grad_norm_(0.8)."""
    def norm(max_norm, norm_type):
        return lambda params: nn.utils.clip_grad_norm_(
            params, max_norm=max_norm, norm_type=norm_type)

    def value(clip_value):
        return lambda params: nn.utils.clip_grad_value_(params, clip_value)

    def value_then_norm(params):
        nn.utils.clip_grad_value_(params, 0.1)
        return nn.utils.clip_grad_norm_(params, max_norm=0.8)

    for name, clip in [("clip_norm_inf", norm(0.15, float("inf"))),
                       ("clip_norm_l1", norm(20.0, 1.0)),
                       ("clip_norm_p3", norm(0.4, 3.0)),
                       ("clip_value", value(0.05)),
                       ("clip_value_then_norm", value_then_norm)]:
        train_clipped(name, clip)


def optimizer_runs():
    """The optimizers of test/Import/optimizers.test as functions of the
    model's named parameters: torch.optim.Adam (L2 weight decay), SGD with
    Nesterov momentum, RMSprop (plain with weight decay; centered with
    momentum), Adagrad (weight decay, a nonzero initial accumulator; lr
    decay), Adam with AMSGrad, RAdam (L2 and decoupled weight decay),
    Adafactor (decoupled weight decay; its other hyperparameters off their
    defaults), a
    param group with its own lr (the head's),
    and param groups without weight decay (timm's rule, every
    param of rank <= 1; and by name, as Hugging Face's Trainer)."""
    def groups(named, no_decay, decay):
        named = list(named)
        return [{"params": [p for n, p in named if not no_decay(n, p)],
                 "weight_decay": decay},
                {"params": [p for n, p in named if no_decay(n, p)],
                 "weight_decay": 0.0}]

    def head_lr(named):
        named = list(named)
        return torch.optim.AdamW(
            [{"params": [p for n, p in named if not n.startswith("head.")]},
             {"params": [p for n, p in named if n.startswith("head.")],
              "lr": 0.001}], lr=0.01, weight_decay=0.5)
    return {
        "adam": lambda named: torch.optim.Adam(
            [p for _, p in named], lr=0.01, weight_decay=0.5),
        "sgd_nesterov": lambda named: torch.optim.SGD(
            [p for _, p in named], lr=0.1, momentum=0.9, nesterov=True),
        "rmsprop": lambda named: torch.optim.RMSprop(
            [p for _, p in named], lr=0.01, weight_decay=0.1),
        "rmsprop_centered_momentum": lambda named: torch.optim.RMSprop(
            [p for _, p in named], lr=0.002, alpha=0.9, eps=1e-6,
            momentum=0.8, centered=True),
        "adagrad": lambda named: torch.optim.Adagrad(
            [p for _, p in named], lr=0.05, weight_decay=0.1,
            initial_accumulator_value=0.1),
        "adagrad_lr_decay": lambda named: torch.optim.Adagrad(
            [p for _, p in named], lr=0.05, lr_decay=0.1,
            initial_accumulator_value=0.1),
        "radam": lambda named: torch.optim.RAdam(
            [p for _, p in named], lr=0.05, weight_decay=0.1),
        "radam_decoupled": lambda named: torch.optim.RAdam(
            [p for _, p in named], lr=0.03, betas=(0.9, 0.99),
            weight_decay=0.5, decoupled_weight_decay=True),
        "adafactor": lambda named: torch.optim.Adafactor(
            [p for _, p in named], lr=0.05, weight_decay=0.1),
        "adafactor_options": lambda named: torch.optim.Adafactor(
            [p for _, p in named], lr=0.05, beta2_decay=-0.5,
            eps=(1e-4, 1e-2), d=2.0),
        "adam_amsgrad": lambda named: torch.optim.Adam(
            [p for _, p in named], lr=0.01, betas=(0.9, 0.9), amsgrad=True),
        "adamw_no_decay_1d": lambda named: torch.optim.AdamW(
            groups(named, lambda n, p: p.ndim <= 1, 0.5), lr=0.01),
        "adamw_param_lr": head_lr,
        "sgd_no_decay_names": lambda named: torch.optim.SGD(
            groups(named, lambda n, p: "bias" in n or n.startswith("head.1."),
                   0.05), lr=0.1, momentum=0.9),
    }


def save_graph(stem, nodes, inputs, outputs, inits=(), opset=22,
               check=True):
    """`nodes` as the graph `stem` of a model of the default domain at
    `opset` (IR version 10), checked unless `check` is false (models the
    importer must reject), saved as <stem>.onnx; returns its path."""
    graph = onnx.helper.make_graph(nodes, stem, inputs, outputs, list(inits))
    model = onnx.helper.make_model(graph, opset_imports=[
        onnx.helper.make_opsetid("", opset)], producer_name="amp-test")
    model.ir_version = 10
    if check:
        onnx.checker.check_model(model, full_check=True)
    path = os.path.join(HERE, stem + ".onnx")
    onnx.save(model, path)
    return path


def log_steps(path, opt, loss_of_step, steps=10):
    """`steps` steps of `opt` on loss_of_step(step) (from 1), each step's
    loss in the log `path` (step,loss)."""
    with open(os.path.join(HERE, path), "w") as log:
        log.write("step,loss\n")
        for step in range(1, steps + 1):
            opt.zero_grad()
            loss = loss_of_step(step)
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


def train_and_log(model, x, y, opt, path,
                  loss_fn=nn.functional.cross_entropy, steps=10):
    """`steps` full-batch steps of `opt` on loss_fn(model(x), y), each
    step's loss in the log `path` (step,loss)."""
    log_steps(path, opt, lambda step: loss_fn(model(x), y), steps)


def write_bn_cnn_losses(path, make_optimizer,
                        loss_fn=nn.functional.cross_entropy, steps=10,
                        dtype=torch.float32):
    """bn_cnn_eval.onnx trained by PyTorch on its 16 rows (one full batch per
    step) with the optimizer make_optimizer(model.named_parameters()) and
    loss_fn, in `dtype` (the model's f32 weights converted), each step's
    loss in the log `path` (step,loss)."""
    model, features, labels = bn_cnn_model()
    model.to(dtype).train()
    x = torch.tensor(features / 16.0, dtype=dtype).reshape(16, 1, 8, 8)
    y = torch.tensor(labels)
    train_and_log(model, x, y, make_optimizer(model.named_parameters()),
                  path, loss_fn, steps)


def write_optimizers():
    """The BN CNN's losses under each optimizer of optimizer_runs
    (opt_<name>_torch_log.csv), and in f64 under Adafactor with an lr above
    1 / sqrt(step) from step 3 (its relative step size min(lr, 1 /
    sqrt(step)) then falls): steps of 0.6 times each param's root mean
    square make the losses jump, which amplifies f32 rounding (PyTorch's
    own f32 run ends 7.7e-4 from its f64 one), so the test compares with
    the f64 run (opt_adafactor_large_lr_f64_torch_log.csv)."""
    for name, make in optimizer_runs().items():
        write_bn_cnn_losses(f"opt_{name}_torch_log.csv", make)
    write_bn_cnn_losses(
        "opt_adafactor_large_lr_f64_torch_log.csv",
        lambda named: torch.optim.Adafactor(
            [p for _, p in named], lr=0.6, beta2_decay=-0.5,
            eps=(1e-4, 1e-2), d=4.0), dtype=torch.float64)


def train_averaged_bn_cnn(path, make_average, update, averaged_tensors):
    """bn_cnn_eval.onnx trained by 10 full-batch SGD steps (lr 0.1, momentum
    0.9) on its 16 rows, with the moving average make_average(model)
    updated by update(average, model, step) after every step (from 1);
    averaged_tensors(average, model) after the last step (the averaged
    params, then the running statistics) go to `path`, one line per tensor,
    in the order of amp-run --save-ema's file. The model runs once first, as
    write_batch_norm_cnn's training-mode export did before the eval-mode
    export whose running statistics amp starts from."""
    model, features, labels = bn_cnn_model()
    model.train()
    x = torch.tensor(features / 16.0, dtype=torch.float32).reshape(16, 1, 8, 8)
    y = torch.tensor(labels)
    with torch.no_grad():
        model(x)
    average = make_average(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(1, 11):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        update(average, model, step)
    with open(os.path.join(HERE, path), "w") as out:
        for t in averaged_tensors(average, model):
            out.write(",".join(f"{v:.9g}" for v in t.flatten().tolist())
                      + "\n")


def float_buffers(module):
    return [b for b in module.buffers() if b.is_floating_point()]


def write_ema():
    """train_averaged_bn_cnn with torch.optim.swa_utils.AveragedModel(model,
    multi_avg_fn=get_ema_multi_avg_fn(0.8), use_buffers=...), as amp-run
    --autodiff-options "ema-decay=0.8 [ema-buffers]" trains it:
    ema_torch_params.csv with use_buffers=False (the buffers are the
    model's, which AveragedModel copies), ema_buffers_torch_params.csv with
    use_buffers=True (the buffers averaged too)."""
    from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
    for stem, use_buffers in (("ema", False), ("ema_buffers", True)):
        train_averaged_bn_cnn(
            f"{stem}_torch_params.csv",
            lambda model: AveragedModel(
                model, multi_avg_fn=get_ema_multi_avg_fn(0.8),
                use_buffers=use_buffers),
            lambda average, model, step: average.update_parameters(model),
            lambda average, model: list(average.module.parameters())
            + float_buffers(average.module))


def write_ema_warmup():
    """train_averaged_bn_cnn with the averages of two trainers whose decay
    ramps up over the first updates, as amp-run --autodiff-options
    "ema-decay=0.8 ema-warmup=..." trains it: ema_ratio_torch_params.csv
    from diffusers' EMAModel(decay=0.8) (its default warmup, decay
    min(0.8, (1 + t) / (10 + t)) at update t; the parameters only, the
    buffers the model's), ema_power_torch_params.csv from timm's
    ModelEmaV3(decay=0.8, use_warmup=True) (min(0.8, 1 - (1 + t)^(-2/3)),
    buffers averaged too, ema-buffers), given the number of updates as
    timm's train.py gives it."""
    from diffusers.training_utils import EMAModel
    from timm.utils.model_ema import ModelEmaV3
    train_averaged_bn_cnn(
        "ema_ratio_torch_params.csv",
        lambda model: EMAModel(model.parameters(), decay=0.8),
        lambda average, model, step: average.step(model.parameters()),
        lambda average, model: list(average.shadow_params)
        + float_buffers(model))
    train_averaged_bn_cnn(
        "ema_power_torch_params.csv",
        lambda model: ModelEmaV3(model, decay=0.8, use_warmup=True),
        lambda average, model, step: average.update(model, step=step),
        lambda average, model: list(average.module.parameters())
        + float_buffers(average.module))


def write_label_smoothing():
    """The BN CNN's losses under 10 steps of SGD (lr 0.1, momentum 0.9) on
    CrossEntropyLoss(label_smoothing=0.2) (label_smoothing_torch_log.csv,
    test/Import/label-smoothing.test)."""
    write_bn_cnn_losses(
        "label_smoothing_torch_log.csv",
        lambda named: torch.optim.SGD([p for _, p in named], lr=0.1,
                                      momentum=0.9),
        nn.CrossEntropyLoss(label_smoothing=0.2))


def write_batch_norm_cnn():
    """BnCnn exported in eval mode, then trained in training mode (batch
    statistics, running statistics updated) on one full batch, as amp-run
    --eval-fraction 0 trains it on bn_cnn_rows.csv."""
    model, features, labels = bn_cnn_model()
    np.savetxt(os.path.join(HERE, "bn_cnn_rows.csv"),
               np.concatenate([features, labels[:, None]], axis=1),
               fmt="%d", delimiter=",")
    x = torch.tensor(features / 16.0, dtype=torch.float32).reshape(16, 1, 8, 8)
    np.save(os.path.join(HERE, "bn_cnn_x.npy"), x.numpy())
    names = dict(input_names=["x"], output_names=["logits"], dynamo=False,
                 opset_version=17, do_constant_folding=False)
    torch.onnx.export(model.train(), (x,),
                      os.path.join(HERE, "bn_cnn_train.onnx"),
                      training=torch.onnx.TrainingMode.TRAINING, **names)
    torch.onnx.export(model.eval(), (x,),
                      os.path.join(HERE, "bn_cnn_eval.onnx"), **names)
    model.train()
    train_and_log(model, x, torch.tensor(labels),
                  torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  "bn_cnn_torch_log.csv", steps=5)
    with torch.no_grad():
        np.save(os.path.join(HERE, "bn_cnn_eval_logits.npy"),
                model.eval()(x).numpy())


def write_batch_norm_cnn_dynamo():
    """BnCnn (bn_cnn_model's) in training mode by the torch.export-based
    exporter with its graph optimizer off (bn_cnn_dynamo.onnx, without the
    nodes' metadata; train-batch-norm.test), which keeps the
    BatchNormalization nodes that the optimizer would fold into the
    convolutions. PyTorch's training of it is write_batch_norm_cnn's
    (bn_cnn_torch_log.csv), which started after its training-mode export
    had run the model once: so does this export, whose running statistics
    are checked against bn_cnn_eval.onnx's."""
    model = bn_cnn_model()[0].train()
    x = torch.tensor(np.load(os.path.join(HERE, "bn_cnn_x.npy")))
    with torch.no_grad():
        model(x)
    saved = {i.name: onnx.numpy_helper.to_array(i) for i in onnx.load(
        os.path.join(HERE, "bn_cnn_eval.onnx")).graph.initializer}
    for name, value in model.state_dict().items():
        if "running" in name:
            assert np.array_equal(saved[name], value.numpy()), name
    path = os.path.join(HERE, "bn_cnn_dynamo.onnx")
    torch.onnx.export(model, (x,), path, input_names=["x"],
                      output_names=["logits"], dynamo=True, opset_version=18,
                      external_data=False, optimize=False)
    strip_node_metadata(path)


def export_script_and_train(model, stem):
    """`model` on bn_cnn_x.npy (from write_batch_norm_cnn) exported by the
    TorchScript exporter as `stem`.onnx, then PyTorch's losses over 10
    full-batch SGD steps (lr 0.1, momentum 0.9) on bn_cnn_rows.csv's labels
    in `stem`_torch_log.csv."""
    _, _, labels = bn_cnn_model()
    x = torch.tensor(np.load(os.path.join(HERE, "bn_cnn_x.npy")))
    torch.onnx.export(model, (x,), os.path.join(HERE, stem + ".onnx"),
                      dynamo=False, opset_version=17, input_names=["x"],
                      output_names=["logits"])
    train_and_log(model, x, torch.tensor(labels),
                  torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  stem + "_torch_log.csv")


class ScalarWeights(nn.Module):
    """A CNN whose weights include one-element ones: nn.PReLU()'s single
    slope and the bias of a one-channel convolution."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.act = nn.PReLU()
        self.squeeze = nn.Conv2d(4, 1, 3, padding=1)
        self.head = nn.Linear(64, 4)

    def forward(self, x):
        return self.head(self.squeeze(self.act(self.conv(x))).flatten(1))


def write_gather_empty():
    """Gather of an empty INT64 index at import time from a computed tensor:
    its result has no element, and its sum is 0."""
    node = onnx.helper.make_node
    vi = onnx.helper.make_tensor_value_info
    F = onnx.TensorProto.FLOAT
    save_graph("gather_empty", [
        node("Relu", ["x"], ["r"], name="relu"),
        node("Gather", ["r", "none"], ["g"], name="gather", axis=1),
        node("ReduceSum", ["g"], ["s"], name="sum", keepdims=0)],
        [vi("x", F, [2, 3])], [vi("g", F, [2, 0]), vi("s", F, [])],
        [onnx.numpy_helper.from_array(np.zeros((0,), np.int64), "none")],
        opset=17)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    outputs = {"x": x, "g": x[:, []], "s": np.array(0, np.float32)}
    for name, value in outputs.items():
        np.save(os.path.join(HERE, "gather_empty_%s.npy" % name), value)


def write_duplicate_initializer():
    """A graph that defines the initializer `w` twice (errors.test), which
    the checker would refuse."""
    vi = onnx.helper.make_tensor_value_info
    F = onnx.TensorProto.FLOAT
    w = np.ones((2, 2), np.float32)
    save_graph("duplicate_initializer",
               [onnx.helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
               [vi("x", F, [2, 2])], [vi("y", F, [2, 2])],
               [onnx.numpy_helper.from_array(w, "w"),
                onnx.numpy_helper.from_array(2 * w, "w")], opset=17,
               check=False)


def write_clip_loss():
    """A tiny CLIPModel whose forward returns its contrastive loss
    (one-element-params.test): its root parameter `logit_scale` has one
    element, and PyTorch trains it."""
    from transformers import CLIPConfig, CLIPModel

    class ClipLoss(CLIPModel):
        def forward(self, ids, px):
            return super().forward(input_ids=ids, pixel_values=px,
                                   return_loss=True).loss

    torch.manual_seed(11)
    config = CLIPConfig(
        text_config=dict(vocab_size=VOCAB, hidden_size=16,
                         intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, max_position_embeddings=SEQ),
        vision_config=dict(hidden_size=16, intermediate_size=32,
                           num_hidden_layers=1, num_attention_heads=2,
                           image_size=8, patch_size=4),
        projection_dim=8)
    model = ClipLoss(config).eval()
    perturb_equal_params(model)
    rng = np.random.default_rng(11)
    # Text rows end with the end-of-text token (2), whose position the text
    # model pools.
    ids = rng.integers(3, VOCAB, (48, SEQ))
    ids[:, -1] = 2
    px = rng.standard_normal((48, 3, 8, 8)).astype(np.float32)
    np.savez(os.path.join(HERE, "clip_rows.npz"), ids=ids, px=px)
    args = (torch.tensor(ids[:4]), torch.tensor(px[:4]))
    names = dict(input_names=["ids", "px"], output_names=["loss"])
    torch.onnx.export(model, args, os.path.join(HERE, "clip_loss_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    for stem, optimize in [("clip_loss_dynamo", True),
                           ("clip_loss_dynamo_noopt", False)]:
        path = os.path.join(HERE, stem + ".onnx")
        torch.onnx.export(model, args, path, dynamo=True, opset_version=18,
                          external_data=False, optimize=optimize, **names)
        strip_node_metadata(path)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    log_steps("clip_torch_log.csv", opt, lambda step: model(
        torch.tensor(ids[4 * (step - 1):4 * step]),
        torch.tensor(px[4 * (step - 1):4 * step])))


def write_scalar_weights():
    """ScalarWeights exported by the TorchScript exporter, which writes no
    metadata: the one-channel bias keeps its name (`squeeze.bias`), the
    slope is folded into `onnx::PRelu_N`. PyTorch's losses over 10
    full-batch SGD steps on bn_cnn_rows.csv (needs write_batch_norm_cnn's
    bn_cnn_x.npy), in which both train."""
    torch.manual_seed(11)
    model = ScalarWeights()
    with torch.no_grad():
        model.act.weight.fill_(0.3)
        model.squeeze.bias.fill_(0.2)
    export_script_and_train(model, "scalar_weights")


class FreshMlp(nn.Module):
    """An MLP as freshly initialized: its two LayerNorms' weights are all
    ones and their biases zeros, its hidden Linears' biases zeros, so the
    TorchScript exporter stores each of those values once."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 16)
        self.ln1 = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 16)
        self.ln2 = nn.LayerNorm(16)
        self.head = nn.Linear(16, 4)
        with torch.no_grad():
            self.fc1.bias.zero_()
            self.fc2.bias.zero_()

    def forward(self, x):
        x = torch.relu(self.ln1(self.fc1(x.flatten(1))))
        return self.head(torch.relu(self.ln2(self.fc2(x))))


def write_fresh_mlp():
    """FreshMlp exported by the TorchScript exporter (equal parameters
    stored once, each other one an Identity named as it: dedup-params.test)
    and PyTorch's losses over 10 full-batch SGD steps on bn_cnn_rows.csv
    (needs write_batch_norm_cnn's bn_cnn_x.npy), in which they train
    apart."""
    torch.manual_seed(12)
    model = FreshMlp()
    export_script_and_train(model, "fresh_mlp")


class Regressor(nn.Module):
    """An MLP with a BatchNorm that predicts 3 values per row."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.bn = nn.BatchNorm1d(16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def write_regression():
    """Regressor exported by the TorchScript exporter in training mode
    (regression.onnx, batch 12), its 16 rows (regression.npz: `x` [16, 8]
    and the targets `labels` [16, 3]; regression_rows.csv: the same rows,
    8 features then 3 targets) and PyTorch's MSELoss over 10 full-batch SGD
    steps (lr 0.05, momentum 0.9) on the first 12 rows
    (regression_torch_log.csv), then the eval-mode MSE and mean absolute
    error on the last 4 (regression_torch_eval.txt, one per line): what
    amp-run --eval-fraction 0.25 --shuffle=false trains and holds out."""
    torch.manual_seed(13)
    model = Regressor()
    rng = np.random.default_rng(13)
    x = rng.standard_normal((16, 8)).astype(np.float32)
    teacher = rng.standard_normal((8, 3)).astype(np.float32)
    y = (np.tanh(x @ teacher) + 0.1 * rng.standard_normal((16, 3))).astype(
        np.float32)
    np.savez(os.path.join(HERE, "regression.npz"), x=x, labels=y)
    with open(os.path.join(HERE, "regression_rows.csv"), "w") as f:
        for row in np.concatenate([x, y], axis=1):
            f.write(",".join(f"{v:.9g}" for v in row) + "\n")
    # The training-mode export runs the model once, which moves the running
    # statistics before the file takes them: both sides train from there.
    train_x, train_y = torch.tensor(x[:12]), torch.tensor(y[:12])
    torch.onnx.export(model.train(), (train_x,),
                      os.path.join(HERE, "regression.onnx"), dynamo=False,
                      opset_version=17, input_names=["x"],
                      output_names=["y"],
                      training=torch.onnx.TrainingMode.TRAINING)
    saved = {i.name: onnx.numpy_helper.to_array(i) for i in onnx.load(
        os.path.join(HERE, "regression.onnx")).graph.initializer}
    for name in ("bn.running_mean", "bn.running_var"):
        assert np.array_equal(saved[name], model.state_dict()[name].numpy())
    train_and_log(model, train_x, train_y,
                  torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9),
                  "regression_torch_log.csv", loss_fn=nn.functional.mse_loss)
    with torch.no_grad():
        pred = model.eval()(torch.tensor(x[12:]))
        mse = nn.functional.mse_loss(pred, torch.tensor(y[12:])).item()
        mae = nn.functional.l1_loss(pred, torch.tensor(y[12:])).item()
    with open(os.path.join(HERE, "regression_torch_eval.txt"), "w") as f:
        f.write(f"{mse:.9g}\n{mae:.9g}\n")


def regression_as_exported():
    """Regressor in the state regression.onnx holds (write_regression's
    seed, and the one training-mode forward pass of its export, which
    moves the running statistics), with regression.npz's rows: the model
    and x, y as tensors."""
    torch.manual_seed(13)
    model = Regressor().train()
    data = np.load(os.path.join(HERE, "regression.npz"))
    x, y = torch.tensor(data["x"]), torch.tensor(data["labels"])
    with torch.no_grad():
        model(x[:12])
    saved = {i.name: onnx.numpy_helper.to_array(i) for i in onnx.load(
        os.path.join(HERE, "regression.onnx")).graph.initializer}
    for name, value in model.state_dict().items():
        if name in saved:
            assert np.array_equal(saved[name], value.numpy()), name
    return model, x, y


def write_elementwise_losses():
    """regression.onnx trained by PyTorch as write_regression trains it, with
    L1Loss and HuberLoss(delta=0.5) (regression_l1_torch_log.csv,
    regression_huber_torch_log.csv); then as a multi-label classifier of
    binary targets (multilabel.npz: `x` as regression.npz and `labels`, 1
    where its target is positive, else 0) with BCEWithLogitsLoss
    (multilabel_torch_log.csv), and its eval-mode mean BCE and accuracy of
    the logits' signs on the last 4 rows (multilabel_torch_eval.txt, one
    per line); and summed (reduction="sum") with lr 0.002: MSELoss
    (regression_mse_sum_torch_log.csv) and BCEWithLogitsLoss
    (multilabel_sum_torch_log.csv). multilabel_sigmoid.onnx is
    regression.onnx with a final Sigmoid (the probabilities), which --loss
    bce_with_logits leaves out."""
    for name, loss_fn in (
            ("l1", nn.functional.l1_loss),
            ("huber", lambda p, t: nn.functional.huber_loss(p, t, delta=0.5))):
        model, x, y = regression_as_exported()
        train_and_log(model, x[:12], y[:12],
                      torch.optim.SGD(model.parameters(), lr=0.05,
                                      momentum=0.9),
                      f"regression_{name}_torch_log.csv", loss_fn=loss_fn)
    model, x, y = regression_as_exported()
    labels = (y > 0).float()
    np.savez(os.path.join(HERE, "multilabel.npz"), x=x.numpy(),
             labels=labels.numpy())
    bce = nn.functional.binary_cross_entropy_with_logits
    train_and_log(model, x[:12], labels[:12],
                  torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9),
                  "multilabel_torch_log.csv", loss_fn=bce)
    for name, loss_fn, targets in (
            ("regression_mse_sum", nn.functional.mse_loss, y),
            ("multilabel_sum", bce, labels)):
        summed, _, _ = regression_as_exported()
        train_and_log(summed, x[:12], targets[:12],
                      torch.optim.SGD(summed.parameters(), lr=0.002,
                                      momentum=0.9),
                      f"{name}_torch_log.csv",
                      loss_fn=lambda p, t, f=loss_fn: f(p, t, reduction="sum"))
    with torch.no_grad():
        logits = model.eval()(x[12:])
        loss = bce(logits, labels[12:]).item()
        accuracy = ((logits > 0).float() == labels[12:]).float().mean().item()
    with open(os.path.join(HERE, "multilabel_torch_eval.txt"), "w") as f:
        f.write(f"{loss:.9g}\n{accuracy:.9g}\n")
    graph = onnx.load(os.path.join(HERE, "regression.onnx"))
    out = graph.graph.output[0]
    logits_name = out.name
    out.name = "probabilities"
    graph.graph.node.append(onnx.helper.make_node(
        "Sigmoid", [logits_name], ["probabilities"], name="final_sigmoid"))
    onnx.checker.check_model(graph)
    onnx.save(graph, os.path.join(HERE, "multilabel_sigmoid.onnx"))


class WithLoss(nn.Module):
    """Regressor (a fresh one, seed 17; without its BatchNorm when `bn` is
    false) and its loss in one module, as a user exports
    `criterion(model(x), y)`: "bce" is BCEWithLogitsLoss(pos_weight) of f32
    targets, "focal" torchvision's sigmoid_focal_loss (alpha 0.25, gamma
    2, written out; of shape [1]) of f32 targets, "ce"
    CrossEntropyLoss(weight) of class
    indices. The loss's weights are buffers."""

    def __init__(self, kind, bn=True):
        super().__init__()
        torch.manual_seed(17)
        self.model = Regressor()
        if not bn:
            self.model.bn = nn.Identity()
        self.kind = kind
        self.register_buffer("pos_weight", torch.tensor([1.0, 2.0, 0.5]))
        self.register_buffer("class_weight", torch.tensor([0.5, 1.0, 2.0]))

    def forward(self, x, y):
        logits = self.model(x)
        if self.kind == "bce":
            return nn.functional.binary_cross_entropy_with_logits(
                logits, y, pos_weight=self.pos_weight)
        if self.kind == "focal":
            p = torch.sigmoid(logits)
            ce = nn.functional.binary_cross_entropy_with_logits(
                logits, y, reduction="none")
            p_t = p * y + (1 - p) * (1 - y)
            alpha_t = 0.25 * y + 0.75 * (1 - y)
            # Shape [1], as a loss from a sum of losses can have.
            return (alpha_t * ce * (1 - p_t) ** 2).mean().reshape(1)
        return nn.functional.cross_entropy(logits, y, weight=self.class_weight)


class AutoEncoder(nn.Module):
    """An autoencoder of 8 values through 3 (seed 19) with its loss, the
    mean squared reconstruction error: a loss of the inputs alone."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(19)
        self.encoder = nn.Sequential(nn.Linear(8, 3), nn.Tanh())
        self.decoder = nn.Linear(3, 8)

    def forward(self, x):
        return nn.functional.mse_loss(self.decoder(self.encoder(x)), x)


class SelfSupervisedLm(TinyGpt):
    """TinyGpt with its next-token loss computed from its ids alone: the
    cross-entropy of the logits at positions 0..SEQ-2 against the ids at
    1..SEQ-1."""

    def forward(self, ids):
        logits = super().forward(ids)
        return nn.functional.cross_entropy(
            logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def write_graph_loss_lm():
    """SelfSupervisedLm (seed 21) exported by the TorchScript exporter with
    input ids [4, 8] (graph_loss_lm.onnx, graph-loss.test), and PyTorch's
    losses over 10 SGD steps (lr 0.1, momentum 0.9) on the first 40 rows of
    hf_gpt2_tokens.npz's ids in order, 4 per step
    (graph_loss_lm_torch_log.csv)."""
    torch.manual_seed(21)
    # A fresh nn.TransformerEncoder's layers are copies of one layer: the
    # exporter stores their equal weights once, the second layer's
    # transposed ones as Identity(onnx::MatMul_<n>).
    model = SelfSupervisedLm().eval()
    data = np.load(os.path.join(HERE, "hf_gpt2_tokens.npz"))
    ids = torch.tensor(data["ids"])
    torch.onnx.export(model, (ids[:4],),
                      os.path.join(HERE, "graph_loss_lm.onnx"), dynamo=False,
                      opset_version=17, input_names=["ids"],
                      output_names=["loss"])
    log_steps("graph_loss_lm_torch_log.csv",
              torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
              lambda step: model(ids[4 * (step - 1):4 * step]))


def write_graph_losses():
    """Models exported with their loss (WithLoss), for --train --loss graph
    (test/Import/graph-loss.test): 24 rows (graph_loss.npz: `x` [24, 8],
    `y` [24, 3] binary targets, `labels` [24] the class of each row's
    largest teacher output, INT64); graph_loss_bce.onnx (inputs x and y)
    and graph_loss_ce.onnx (inputs x and labels) from the TorchScript
    exporter in training mode, graph_loss_focal.onnx (inputs x and y; no
    BatchNorm: the torch.export-based exporter folds one into the Gemm
    before it) from the torch.export-based one; each trained by PyTorch with 10
    full-batch SGD steps (lr 0.05, momentum 0.9) on the first 12 rows
    (graph_loss_<kind>_torch_log.csv), then its eval-mode loss on the last
    12 (graph_loss_<kind>_torch_eval.txt); and the same for AutoEncoder, a
    loss without labels (graph_loss_ae.onnx, input x, TorchScript)."""
    rng = np.random.default_rng(17)
    x = rng.standard_normal((24, 8)).astype(np.float32)
    teacher = x @ rng.standard_normal((8, 3)).astype(np.float32)
    y = (teacher > 0).astype(np.float32)
    labels = teacher.argmax(axis=1).astype(np.int64)
    np.savez(os.path.join(HERE, "graph_loss.npz"), x=x, y=y, labels=labels)
    for kind, target, label_name, dynamo in (("bce", y, "y", False),
                                             ("ce", labels, "labels", False),
                                             ("focal", y, "y", True)):
        stem = "graph_loss_" + kind
        train_x, train_t = torch.tensor(x[:12]), torch.tensor(target[:12])
        model = WithLoss(kind, bn=not dynamo).train()
        path = os.path.join(HERE, stem + ".onnx")
        if dynamo:
            torch.onnx.export(model, (train_x, train_t), path, dynamo=True,
                              external_data=False,
                              input_names=["x", label_name],
                              output_names=["loss"])
        else:
            # The training-mode export runs the model once, which moves
            # the running statistics before the file takes them: PyTorch
            # trains from there.
            torch.onnx.export(model, (train_x, train_t), path, dynamo=False,
                              opset_version=17, input_names=["x", label_name],
                              output_names=["loss"],
                              training=torch.onnx.TrainingMode.TRAINING)
        model.train()
        log_steps(stem + "_torch_log.csv",
                  torch.optim.SGD(model.model.parameters(), lr=0.05,
                                  momentum=0.9),
                  lambda step: model(train_x, train_t))
        with torch.no_grad():
            held = model.eval()(torch.tensor(x[12:]),
                                torch.tensor(target[12:])).item()
        with open(os.path.join(HERE, stem + "_torch_eval.txt"), "w") as f:
            f.write(f"{held:.9g}\n")
    # A loss without labels: graph_loss_ae.onnx, input x only.
    train_x = torch.tensor(x[:12])
    model = AutoEncoder()
    torch.onnx.export(model, (train_x,),
                      os.path.join(HERE, "graph_loss_ae.onnx"), dynamo=False,
                      opset_version=17, input_names=["x"],
                      output_names=["loss"])
    log_steps("graph_loss_ae_torch_log.csv",
              torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9),
              lambda step: model(train_x))
    with torch.no_grad():
        held = model(torch.tensor(x[12:])).item()
    with open(os.path.join(HERE, "graph_loss_ae_torch_eval.txt"), "w") as f:
        f.write(f"{held:.9g}\n")


def write_grad_accumulation():
    """bn_cnn_eval.onnx trained by PyTorch's gradient accumulation idiom on
    its 16 rows in file order: two micro-batches of 8 per step (rows 0-7,
    then 8-15), each loss divided by 2, one optimizer step, as amp-run
    --autodiff-options accumulate-steps=2 --shuffle=false trains it. One log
    per optimizer (accumulate_<name>_torch_log.csv: the step's loss, the sum
    of the halved micro-batch losses) and, for SGD, the running statistics
    after the last step (accumulate_sgd_torch_buffers.csv: one line per
    buffer, in the model's order), which the micro-batches update in turn. Needs
    bn_cnn_eval.onnx and bn_cnn_rows.csv from write_batch_norm_cnn."""
    for name in ("sgd", "adamw"):
        model, features, labels = bn_cnn_model()
        model.train()
        x = torch.tensor(features / 16.0,
                         dtype=torch.float32).reshape(16, 1, 8, 8)
        y = torch.tensor(labels)
        # write_batch_norm_cnn's training-mode export ran the model once
        # before the eval-mode export, whose running statistics amp starts
        # from.
        with torch.no_grad():
            model(x)
        if name == "adamw":
            opt = torch.optim.AdamW(model.parameters(), lr=0.01)
        else:
            opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        with open(os.path.join(HERE, f"accumulate_{name}_torch_log.csv"),
                  "w") as log:
            log.write("step,loss\n")
            for step in range(1, 9):
                opt.zero_grad()
                total = 0.0
                for micro in range(2):
                    rows = slice(8 * micro, 8 * micro + 8)
                    loss = nn.functional.cross_entropy(model(x[rows]),
                                                       y[rows]) / 2
                    loss.backward()
                    total += loss.item()
                opt.step()
                log.write(f"{step},{total:.9g}\n")
        if name != "sgd":
            # AdamW moves the conv biases that a batch norm follows by
            # about lr per step in the direction of their rounding-noise
            # gradients (the normalization cancels them): the running means
            # then follow noise, not the training.
            continue
        with open(os.path.join(HERE, f"accumulate_{name}_torch_buffers.csv"),
                  "w") as out:
            for bn in (model.features[1], model.features[4], model.head[1]):
                for buffer in (bn.running_mean, bn.running_var):
                    out.write(",".join(f"{v:.9g}" for v in buffer.tolist())
                              + "\n")


class AttentionDropout(nn.Module):
    """One attention block with BERT's dropouts: nn.Dropout(0.1) on the
    attention probabilities and nn.Dropout(0.2) on its output, then a
    mean-pooled linear head."""

    def __init__(self, d=16, heads=2, classes=4):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v = (nn.Linear(d, d) for _ in range(3))
        self.attn_drop, self.out_drop = nn.Dropout(0.1), nn.Dropout(0.2)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        b, s, d = x.shape
        h, dh = self.heads, d // self.heads

        def split(t):
            return t.view(b, s, h, dh).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dh), dim=-1)
        ctx = (self.attn_drop(p) @ v).transpose(1, 2).reshape(b, s, d)
        return self.head(self.out_drop(ctx)).mean(dim=1)


def write_attention_dropout():
    """attn_dropout_train.onnx: AttentionDropout exported for training by the
    TorchScript exporter (Dropout nodes with training_mode = true)."""
    torch.manual_seed(11)
    model = AttentionDropout().train()
    torch.onnx.export(model, (torch.randn(8, 5, 16),),
                      os.path.join(HERE, "attn_dropout_train.onnx"),
                      dynamo=False, opset_version=17,
                      training=torch.onnx.TrainingMode.TRAINING,
                      do_constant_folding=False, input_names=["x"],
                      output_names=["logits"])


def export_and_train(model, stem, images, opset=17, lr=0.1, logits=False,
                     dynamo=False):
    """`model` exported by the TorchScript exporter (with `dynamo`, the
    torch.export-based one) (input x, output logits) as <stem>.onnx, its logits before training in <stem>_logits.npy when
    `logits`, then trained by PyTorch as amp-run trains the imported model:
    10 full-batch SGD steps (lr, momentum 0.9) on bn_cnn_rows.csv, as the
    [16, 1, 8, 8] images of bn_cnn_x.npy (`images`) or the features / 16 as
    [16, 64]; each step's loss in <stem>_torch_log.csv."""
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    if images:
        x = torch.tensor(np.load(os.path.join(HERE, "bn_cnn_x.npy")))
    else:
        x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    y = torch.tensor(rows[:, 64], dtype=torch.int64)
    torch.onnx.export(model, (x,), os.path.join(HERE, stem + ".onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=dynamo, opset_version=opset,
                      **({"external_data": False} if dynamo else {}))
    if logits:
        with torch.no_grad():
            np.save(os.path.join(HERE, stem + "_logits.npy"),
                    model(x).numpy())
    train_and_log(model, x, y,
                  torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9),
                  stem + "_torch_log.csv")


class Gain(nn.Module):
    """Scales by the exp of its buffer `scale`."""

    def __init__(self, n):
        super().__init__()
        self.register_buffer("scale", torch.linspace(-0.5, 0.5, n))

    def forward(self, x):
        return x * self.scale.exp()


class ModuleConstants(nn.Module):
    """An MLP whose forward also reads a buffer (`gain.scale` through exp,
    which the torch.export-based exporter folds into an initializer `exp`,
    the buffer gone), a plain tensor attribute (`shift`, an initializer
    that the exporter marks CONSTANT_TENSOR), a tensor it builds (a
    lifted constant, folded into `clone`) and one it computes from no
    tensor (the sigmoid of an arange, folded into `mul_2`): PyTorch trains
    only the two Linear layers."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(64, 16), nn.Linear(16, 4)
        self.gain = Gain(16)
        self.shift = torch.linspace(-0.1, 0.1, 16)

    def forward(self, x):
        mix = torch.tensor([1.0, 0.5, 2.0, 1.5] * 4)
        ramp = torch.arange(16.0).sigmoid() * 0.1
        h = self.gain(torch.relu(self.fc1(x))) * mix + self.shift + ramp
        return self.fc2(h)


def write_module_constants():
    """ModuleConstants by the torch.export-based exporter
    (module_constants.onnx; module-constants.test), PyTorch's training of
    it (module_constants_torch_log.csv, export_and_train's), and the same
    model without the graph's metadata, the exported program's signature
    (module_constants_nosig.onnx)."""
    torch.manual_seed(19)
    export_and_train(ModuleConstants(), "module_constants", images=False,
                     opset=18, dynamo=True)
    path = os.path.join(HERE, "module_constants.onnx")
    strip_node_metadata(path)
    model = onnx.load(path)
    del model.graph.metadata_props[:]
    onnx.save(model, os.path.join(HERE, "module_constants_nosig.onnx"))


class BagOfTokens(nn.Module):
    """The mean of 6 token embeddings (nn.Embedding(12, 8, padding_idx=0):
    row 0 starts at zeros and never trains), then Linear(8, 3). The
    padding tokens count in the mean, so row 0 has a gradient that PyTorch
    leaves out."""

    def __init__(self, scale_grad_by_freq=False):
        super().__init__()
        self.emb = nn.Embedding(12, 8, padding_idx=0,
                                scale_grad_by_freq=scale_grad_by_freq)
        self.head = nn.Linear(8, 3)

    def forward(self, ids):
        return self.head(self.emb(ids).mean(1))


def write_padding_idx():
    """BagOfTokens (seed 23) exported by both exporters (bag_script.onnx;
    bag_dynamo.onnx, its nodes' metadata but the FX nodes stripped), on
    bag_tokens.csv: 40 rows of 6 token ids in [1, 12) followed by 0 to 4
    padding zeros, then the label, the first id mod 3. PyTorch's 10 SGD
    steps (lr 0.5, momentum 0.9) on 4 rows each, in order
    (bag_torch_log.csv); the model with scale_grad_by_freq=True
    (bag_freq_dynamo.onnx) and its training (bag_freq_torch_log.csv).
    padding-idx.test."""
    torch.manual_seed(23)
    rng = np.random.default_rng(23)
    ids = rng.integers(1, 12, size=(40, 6))
    for row, pad in zip(ids, rng.integers(0, 5, size=40)):
        if pad:
            row[-pad:] = 0
    labels = ids[:, 0] % 3
    np.savetxt(os.path.join(HERE, "bag_tokens.csv"),
               np.concatenate([ids, labels[:, None]], axis=1), fmt="%d",
               delimiter=",")
    model = BagOfTokens()
    example = (torch.tensor(ids[:4]),)
    names = dict(input_names=["ids"], output_names=["logits"])
    torch.onnx.export(model, example, os.path.join(HERE, "bag_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    freq = BagOfTokens(True)
    for stem, m in (("bag", model), ("bag_freq", freq)):
        path = os.path.join(HERE, stem + "_dynamo.onnx")
        torch.onnx.export(m, example, path, dynamo=True, opset_version=18,
                          external_data=False, **names)
        strip_node_metadata(path, keep=("pkg.torch.onnx.fx_node",))
    for stem, m in (("bag", model), ("bag_freq", freq)):
        train_token_rows_and_log(
            m, lambda rows, m=m: m(torch.tensor(ids[rows])), labels,
            stem + "_torch_log.csv", lr=0.5)
        assert bool((m.emb.weight[0] == 0).all())


class ActMlp(nn.Module):
    """The MLP of act_mlp.onnx: Linear(64, 24), every activation of the
    hidden layer averaged, Linear(24, 4)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.acts = nn.ModuleList([
            nn.ELU(0.5), nn.SELU(), nn.CELU(2.0), nn.Softplus(),
            nn.Softsign(), nn.Mish(), nn.Hardswish(), nn.PReLU(24, 0.2),
            nn.LeakyReLU(0.1), nn.Hardsigmoid()])
        self.fc2 = nn.Linear(24, 4)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(sum(act(h) for act in self.acts) / len(self.acts))


def write_activations():
    """ActMlp (seed 9) exported and trained (test/Import/activations.test)."""
    torch.manual_seed(9)
    model = ActMlp()
    # PReLU's slopes differ per column, so that each one's gradient counts.
    with torch.no_grad():
        model.acts[7].weight.uniform_(0.05, 0.4)
    export_and_train(model, "act_mlp", images=False, opset=18)


class TrigMlp(nn.Module):
    """The MLP of trig_mlp.onnx: Linear(64, 24), then sin, cos and erf of
    the hidden layer (Sin, Cos, Erf of run-time values), Linear(24, 4)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.fc2 = nn.Linear(24, 4)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(torch.sin(2 * h) + 0.5 * torch.cos(h) + torch.erf(h))


def write_trig():
    """TrigMlp (seed 10) exported and trained (test/Import/sin-cos-erf.test)."""
    torch.manual_seed(10)
    export_and_train(TrigMlp(), "trig_mlp", images=False)


class ResizeCnn(nn.Module):
    """The CNN of resize_cnn.onnx: every way PyTorch's exporter writes a
    Resize (scales for Upsample, sizes for interpolate)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.conv2 = nn.Conv2d(4, 6, 3, padding=1)
        self.head = nn.Linear(6 * 7 * 7, 4)

    def forward(self, x):
        h = self.up(self.pool(torch.relu(self.conv1(x))))
        h = torch.relu(self.conv2(h))
        h = nn.functional.interpolate(h, size=(5, 5), mode="bilinear",
                                      align_corners=False)
        h = nn.functional.interpolate(h, size=(7, 7), mode="bicubic",
                                      align_corners=True)
        return self.head(h.flatten(1))


def write_resize():
    """ResizeCnn (seed 11) exported and trained (test/Import/resize.test)."""
    torch.manual_seed(11)
    export_and_train(ResizeCnn(), "resize_cnn", images=True, logits=True)


class ShuffleCnn(nn.Module):
    """The CNN of shuffle_cnn.onnx: sub-pixel convolution (super-resolution
    models' upsampling) and its inverse, nn.PixelShuffle and
    nn.PixelUnshuffle, which the exporter writes as DepthToSpace (CRD) and
    SpaceToDepth."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        self.conv2 = nn.Conv2d(2, 3, 3, padding=1)
        self.unshuffle = nn.PixelUnshuffle(4)
        self.head = nn.Linear(48 * 16, 4)

    def forward(self, x):
        h = self.shuffle(torch.relu(self.conv1(x)))
        h = self.unshuffle(torch.relu(self.conv2(h)))
        return self.head(h.flatten(1))


def write_pixel_shuffle():
    """ShuffleCnn (seed 23) exported and trained
    (test/Import/depth-space.test)."""
    torch.manual_seed(23)
    export_and_train(ShuffleCnn(), "shuffle_cnn", images=True, logits=True)


class GnCnn(nn.Module):
    """The block of gn_cnn.onnx (diffusion UNets' normalization and
    activation)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.GroupNorm(4, 8), nn.SiLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.GroupNorm(2, 8),
            nn.SiLU(), nn.Upsample(scale_factor=2, mode="nearest"),
            nn.InstanceNorm2d(8, affine=True), nn.Conv2d(8, 4, 3, padding=1),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.body(x)


def write_group_norm():
    """GnCnn (seed 13, norm affines drawn) exported and trained
    (test/Import/group-norm.test)."""
    torch.manual_seed(13)
    model = GnCnn()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.GroupNorm, nn.InstanceNorm2d)):
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    export_and_train(model, "gn_cnn", images=True, logits=True)


class EinsumAttention(nn.Module):
    """The model of einsum_model.onnx: attention as einsums."""

    def __init__(self):
        super().__init__()
        self.q, self.k, self.v = (nn.Linear(8, 8) for _ in range(3))
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        t = x.reshape(x.shape[0], 8, 8)
        scores = torch.einsum("bqd,bkd->bqk", self.q(t), self.k(t))
        attn = torch.softmax(scores / 8 ** 0.5, dim=-1)
        h = torch.einsum("bqk,bkd->bqd", attn, self.v(t))
        return self.head(h.mean(1))


def write_einsum():
    """EinsumAttention (seed 17) exported and trained
    (test/Import/einsum.test)."""
    torch.manual_seed(17)
    export_and_train(EinsumAttention(), "einsum_model", images=False, lr=0.5)


class PadCnn(nn.Module):
    """The CNN of pad_cnn.onnx: PyTorch's reflection, replication and
    negative (cropping) pads, which it exports as Pad in modes reflect,
    edge and constant."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.reflect = nn.ReflectionPad2d((2, 1, 2, 3))
        self.conv2 = nn.Conv2d(4, 4, 3)
        self.replicate = nn.ReplicationPad2d((1, 2, 0, 1))
        self.crop = nn.ConstantPad2d((-1, 1, 1, -2), 0.5)
        self.head = nn.Linear(4 * 9 * 10, 4)

    def forward(self, x):
        h = torch.relu(self.conv1(self.reflect(x)))
        h = torch.relu(self.conv2(self.replicate(h)))
        return self.head(self.crop(h).flatten(1))


def write_pad():
    """PadCnn (seed 14) exported and trained (test/Import/pad.test)."""
    torch.manual_seed(14)
    export_and_train(PadCnn(), "pad_cnn", images=True, logits=True)


class PowMlp(nn.Module):
    """The MLP of pow_mlp.onnx: a learned exponent per hidden unit (a
    tensor exponent, imported as nn.powf whose both operands train)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.p = nn.Parameter(torch.empty(24).uniform_(0.5, 2.0))
        self.fc2 = nn.Linear(24, 4)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(torch.pow(h.abs() + 0.5, self.p))


def write_pow():
    """PowMlp (seed 15) exported and trained (test/Import/pow.test)."""
    torch.manual_seed(15)
    export_and_train(PowMlp(), "pow_mlp", images=False, logits=True)
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    np.save(os.path.join(HERE, "pow_mlp_x.npy"),
            (rows[:, :64] / 16.0).astype(np.float32))


class StepMlp(nn.Module):
    """The MLP of step_mlp.onnx: floor, ceil, round and sign of run-time
    values, whose derivatives are zero (PyTorch's), so only the other paths
    train. Four features bucketed by Floor into ids of a learned embedding;
    the hidden layer's symlog sign(h) * log(1 + |h|) (the gradient flows
    through log(1 + |h|) alone); a rounded and a ceiled copy of h added as
    constants of the gradient."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.buckets = nn.Embedding(4, 24)
        self.fc2 = nn.Linear(24, 4)

    def forward(self, x):
        ids = torch.floor(x[:, 20:24] * 3.99).long()
        h = self.fc1(x) + self.buckets(ids).mean(dim=1)
        s = torch.sign(h) * torch.log(1 + h.abs())
        return self.fc2(s + torch.round(h * 4) / 8 - torch.ceil(h) / 16)


def write_step():
    """StepMlp (seed 16) exported and trained (test/Import/step.test)."""
    torch.manual_seed(16)
    export_and_train(StepMlp(), "step_mlp", images=False, logits=True)


class Cnn3d(nn.Module):
    """The CNN of cnn3d.onnx: the 64 features as a 4 x 4 x 4 volume;
    Conv3d (padded), ReLU, MaxPool3d (padded), a grouped Conv3d dilated in
    depth, AvgPool3d (padded, count_include_pad=False), Linear."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv3d(1, 6, 3, padding=1)
        self.pool = nn.MaxPool3d(2, stride=2, padding=1)
        self.c2 = nn.Conv3d(6, 8, (2, 3, 3), padding=1, groups=2,
                            dilation=(2, 1, 1))
        self.avg = nn.AvgPool3d(2, stride=(1, 2, 2), padding=1,
                                count_include_pad=False)
        self.fc = nn.Linear(8 * 4 * 2 * 2, 4)

    def forward(self, x):
        v = x.reshape(-1, 1, 4, 4, 4)
        h = self.pool(torch.relu(self.c1(v)))
        h = self.avg(torch.relu(self.c2(h)))
        return self.fc(h.flatten(1))


def write_cnn3d():
    """Cnn3d (seed 17) exported and trained (test/Import/conv3d.test)."""
    torch.manual_seed(17)
    export_and_train(Cnn3d(), "cnn3d", images=False, logits=True)


class Deconv3d(nn.Module):
    """The model of deconv3d.onnx: the 64 features as a 4 x 4 x 4 volume;
    a strided Conv3d down, a ConvTranspose3d up (stride 2, padding,
    output_padding), a grouped ConvTranspose3d dilated in depth, Linear."""

    def __init__(self):
        super().__init__()
        self.down = nn.Conv3d(1, 4, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose3d(4, 4, 3, stride=2, padding=1,
                                     output_padding=1)
        self.up2 = nn.ConvTranspose3d(4, 6, (2, 3, 3), groups=2,
                                      dilation=(2, 1, 1), padding=(0, 1, 1))
        self.fc = nn.Linear(6 * 6 * 4 * 4, 4)

    def forward(self, x):
        v = x.reshape(-1, 1, 4, 4, 4)
        h = torch.relu(self.up(torch.relu(self.down(v))))
        return self.fc(torch.tanh(self.up2(h)).flatten(1))


def write_deconv3d():
    """Deconv3d (seed 18) exported and trained (test/Import/conv3d.test)."""
    torch.manual_seed(18)
    export_and_train(Deconv3d(), "deconv3d", images=False, logits=True)


class FloatTypesMlp(nn.Module):
    """The MLP of half_mlp.onnx, half_io_mlp.onnx and double_mlp.onnx:
    Linear(64, 32), LayerNorm, ReLU, Linear(32, 4). With `round_at` the
    named points round to float16 and back (`.half().float()`, whose
    gradient autograd rounds the same way): the f32 semantics of
    half_io_mlp.onnx's Casts."""

    def __init__(self, round_at=()):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.ln = nn.LayerNorm(32)
        self.fc2 = nn.Linear(32, 4)
        self.round_at = round_at

    def _round(self, name, h):
        return h.half().float() if name in self.round_at else h

    def forward(self, x):
        h = self.fc1(self._round("x", x))
        h = self._round("ln", self.ln(h))
        return self.fc2(torch.relu(h))


def half_io_model(path_in, path_out):
    """Rewrites the f32 export of a FloatTypesMlp as a float16 converter
    (onnxconverter-common's keep_io_types) writes it: FLOAT16 weights, a
    Cast to FLOAT16 after the input and to FLOAT before the output, and the
    LayerNormalization kept in FLOAT between Casts, its scale and bias FLOAT
    initializers."""
    import onnx
    from onnx import helper, numpy_helper, TensorProto

    model = onnx.load(path_in)
    graph = model.graph
    ln = next(n for n in graph.node if n.op_type == "LayerNormalization")
    keep = set(ln.input[1:])
    for i, init in enumerate(graph.initializer):
        if init.data_type == TensorProto.FLOAT and init.name not in keep:
            a = numpy_helper.to_array(init).astype(np.float16)
            graph.initializer[i].CopyFrom(numpy_helper.from_array(a, init.name))
    nodes = list(graph.node)
    x, out = graph.input[0].name, graph.output[0].name
    for n in nodes:
        n.input[:] = [x + "_h" if v == x else v for v in n.input]
        n.output[:] = [out + "_h" if v == out else v for v in n.output]
    ln.input[0], ln_in = ln.input[0] + "_f", ln.input[0]
    ln.output[0], ln_out = ln.output[0] + "_f", ln.output[0]
    at = nodes.index(ln)
    nodes[at:at + 1] = [
        helper.make_node("Cast", [ln_in], [ln.input[0]], to=TensorProto.FLOAT,
                         name="ln_in_cast"),
        ln,
        helper.make_node("Cast", [ln.output[0]], [ln_out],
                         to=TensorProto.FLOAT16, name="ln_out_cast")]
    nodes.insert(0, helper.make_node("Cast", [x], [x + "_h"],
                                     to=TensorProto.FLOAT16, name="x_cast"))
    nodes.append(helper.make_node("Cast", [out + "_h"], [out],
                                  to=TensorProto.FLOAT, name="logits_cast"))
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.save(model, path_out)


def write_float_types():
    """FloatTypesMlp (seed 19) with weights rounded to float16, exported
    three ways (test/Import/float-types.test): as `model.half()` (FLOAT16
    input, weights and logits: half_mlp.onnx), as `model.double()`
    (double_mlp.onnx), and as a float16 converter writes it
    (half_io_mlp.onnx). The features as float16 (half_mlp_x16.npy), exact;
    PyTorch's logits and 10 SGD steps of the f32 model with those weights
    (half_mlp_logits.npy, half_mlp_torch_log.csv), and
    of the model rounding where half_io_mlp.onnx casts to FLOAT16
    (half_io_mlp_torch_log.csv)."""
    torch.manual_seed(19)
    model = FloatTypesMlp()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())
        model.ln.weight.uniform_(0.5, 1.5)
        model.ln.weight.copy_(model.ln.weight.half().float())
    state = {k: v.clone() for k, v in model.state_dict().items()}
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    y = torch.tensor(rows[:, 64], dtype=torch.int64)
    names = dict(input_names=["x"], output_names=["logits"], dynamo=False,
                 opset_version=17)
    path = lambda name: os.path.join(HERE, name)
    half = FloatTypesMlp()
    half.load_state_dict(state)
    torch.onnx.export(half.half(), (x.half(),), path("half_mlp.onnx"), **names)
    double = FloatTypesMlp()
    double.load_state_dict(state)
    torch.onnx.export(double.double(), (x.double(),), path("double_mlp.onnx"),
                      **names)
    torch.onnx.export(model, (x,), path("half_io_f32.onnx"), **names)
    half_io_model(path("half_io_f32.onnx"), path("half_io_mlp.onnx"))
    os.remove(path("half_io_f32.onnx"))
    np.save(path("half_mlp_x16.npy"), x.half().numpy())
    with torch.no_grad():
        np.save(path("half_mlp_logits.npy"), model(x).numpy())
    train_and_log(model, x, y,
                  torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  "half_mlp_torch_log.csv")
    rounding = FloatTypesMlp(round_at=("x", "ln"))
    rounding.load_state_dict(state)
    with torch.no_grad():
        np.save(path("half_io_mlp_logits.npy"), rounding(x).numpy())
    train_and_log(rounding, x, y,
                  torch.optim.SGD(rounding.parameters(), lr=0.1, momentum=0.9),
                  "half_io_mlp_torch_log.csv")



class MoeMlp(nn.Module):
    """The mixture of experts of moe_mlp.onnx, routed as Mixtral routes: a
    router Linear(64, 4) whose softmax's top 2 (torch.topk) pick 2 of 4
    experts per row, weighted by their probabilities renormalized to sum
    1; each expert Linear(64, 24) + relu; then Linear(24, 4). The experts
    run densely: a row's gate of expert e is the sum of its picks' weights
    where the pick is e (0 for an expert not picked), which exports with
    Equal and Cast of the run-time positions, or with `scatter` the weights
    scattered into zeros at the picks (ScatterElements at run-time
    indices)."""

    def __init__(self, experts=4, top=2, scatter=False):
        super().__init__()
        self.top = top
        self.scatter = scatter
        self.router = nn.Linear(64, experts)
        self.experts = nn.ModuleList(
            [nn.Linear(64, 24) for _ in range(experts)])
        self.head = nn.Linear(24, 4)
        self.register_buffer("ids", torch.arange(experts), persistent=False)

    def forward(self, x):
        probs = torch.softmax(self.router(x), dim=-1)
        weights, picks = torch.topk(probs, self.top, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        if self.scatter:
            gates = torch.zeros_like(probs).scatter(-1, picks, weights)
        else:
            hit = (picks.unsqueeze(-1) == self.ids).to(x.dtype)
            gates = (weights.unsqueeze(-1) * hit).sum(dim=1)
        h = sum(gates[:, e:e + 1] * torch.relu(expert(x))
                for e, expert in enumerate(self.experts))
        return self.head(h)


def write_moe():
    """MoeMlp (seed 20) exported by both exporters (moe_mlp.onnx,
    moe_mlp_dynamo.onnx(.data)) and trained (test/Import/topk.test); the
    router's weights scaled by 4, so that the rows' picks are clear and
    every expert is picked by some."""
    torch.manual_seed(20)
    model = MoeMlp()
    with torch.no_grad():
        model.router.weight.mul_(4)
    torch.onnx.export(model, (torch.zeros(16, 64),),
                      os.path.join(HERE, "moe_mlp_dynamo.onnx"),
                      input_names=["x"], output_names=["logits"], dynamo=True)
    export_and_train(model, "moe_mlp", images=False, logits=True)


def write_moe_scatter():
    """MoeMlp with its gates scattered (ScatterElements at run-time
    indices), the weights of write_moe's, exported by both exporters
    (moe_scatter.onnx, moe_scatter_dynamo.onnx(.data)); it computes what
    MoeMlp computes, so moe_mlp_logits.npy and moe_mlp_torch_log.csv are its
    logits and losses too, which this checks (test/Import/topk.test)."""
    torch.manual_seed(20)
    dense = MoeMlp()
    with torch.no_grad():
        dense.router.weight.mul_(4)
    model = MoeMlp(scatter=True)
    model.load_state_dict(dense.state_dict())
    x = torch.zeros(16, 64)
    torch.onnx.export(model, (x,), os.path.join(HERE, "moe_scatter_dynamo.onnx"),
                      input_names=["x"], output_names=["logits"], dynamo=True)
    torch.onnx.export(model, (x,), os.path.join(HERE, "moe_scatter.onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=False, opset_version=17)
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    with torch.no_grad():
        assert np.allclose(model(x).numpy(),
                           np.load(os.path.join(HERE, "moe_mlp_logits.npy")),
                           rtol=0, atol=1e-6)


def main():
    torch.manual_seed(3)
    model = TinyBert().eval()
    ids = torch.randint(0, VOCAB, (BATCH, SEQ))
    with torch.no_grad():
        logits = model(ids)
    np.save(os.path.join(HERE, "bert_tiny_ids.npy"), ids.numpy())
    np.save(os.path.join(HERE, "bert_tiny_logits.npy"), logits.numpy())
    export_both(model, (ids,), "bert_tiny")
    gpt = TinyGpt().eval()
    with torch.no_grad():
        np.save(os.path.join(HERE, "gpt_tiny_logits.npy"), gpt(ids).numpy())
    export_both(gpt, (ids,), "gpt_tiny")
    # At opset 23 nn.TransformerEncoderLayer's attention is ONNX's Attention.
    for m, stem in ((model, "bert_tiny"), (gpt, "gpt_tiny")):
        torch.onnx.export(m, (ids,), os.path.join(HERE, stem + "_opset23.onnx"),
                          dynamo=True, opset_version=23, external_data=False,
                          input_names=["ids"], output_names=["logits"])
    # Padded rows (trailing id 0); the first token is never padding.
    padded = ids.clone()
    padded[:, 0] = padded[:, 0].clamp(min=1)
    padded[1, 5:] = 0
    padded[3, 2:] = 0
    np.save(os.path.join(HERE, "bert_pad_ids.npy"), padded.numpy())
    pad = PadBert().eval()
    pad.load_state_dict(model.state_dict())
    with torch.no_grad():
        np.save(os.path.join(HERE, "bert_pad_logits.npy"),
                pad(padded).numpy())
    export_both(pad, (padded,), "bert_pad")
    hf = HfAttention().eval()
    mask = (padded != 0).to(torch.int64)
    np.save(os.path.join(HERE, "hf_attn_mask.npy"), mask.numpy())
    np.save(os.path.join(HERE, "hf_attn_mask_ones.npy"),
            np.ones_like(mask.numpy()))
    with torch.no_grad():
        np.save(os.path.join(HERE, "hf_attn_logits.npy"),
                hf(padded, mask).numpy())
    export_both(hf, (padded, mask), "hf_attn", input_names=("ids", "mask"))
    export_hf_bert(padded, mask)
    export_hf_gpt2(padded, mask)
    rows = np.random.default_rng(1).integers(0, VOCAB, (600, SEQ))
    np.savetxt(os.path.join(HERE, "bert_tiny_tokens.csv"),
               np.concatenate([rows, rows[:, :1] % CLASSES], axis=1),
               fmt="%d", delimiter=",")
    write_padded_tokens()
    write_next_tokens()
    write_hf_llama()
    write_hf_llama_lm_loss()
    write_hf_mixtral_loss()
    write_module_constants()
    write_padding_idx()
    write_hf_albert_loss()
    write_hf_gpt2_tied()
    write_hf_t5()
    write_hf_vision()
    write_hf_vit()
    write_hf_roberta()
    write_hf_opt()
    write_hf_deberta_v2()
    write_batch_norm_cnn()
    write_batch_norm_cnn_dynamo()
    write_scalar_weights()
    write_clip_loss()
    write_gather_empty()
    write_duplicate_initializer()
    write_fresh_mlp()
    write_regression()
    write_elementwise_losses()
    write_lr_schedules()
    write_ema()
    write_ema_warmup()
    write_grad_norm()
    write_grad_clipping()
    write_activations()
    write_resize()
    write_group_norm()
    write_pixel_shuffle()
    write_einsum()
    write_trig()
    write_hf_seq2seq()
    write_hf_marian()
    write_attention_dropout()


if __name__ == "__main__":
    main()
