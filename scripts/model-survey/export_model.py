"""Builds one tiny random model and exports it with both PyTorch exporters.

    python export_model.py NAME OUTDIR     (python: one with torch, ...)
    python export_model.py --list          (the model names, NAMES + EXTRAS)

Writes OUTDIR/NAME/ (emptied first):
  in0.npy [in1.npy ...]   the inputs, in the ONNX graph's input order
  logits.npy              PyTorch's first output (float32)
  script.onnx             torch.onnx.export(dynamo=False, opset_version=17)
  dynamo.onnx             torch.onnx.export(dynamo=True), its default opset,
                          weights embedded (external_data=False)
  script.err, dynamo.err  the exporter's exception, when it failed
  meta.json               input names and shapes, output shape, and per
                          exporter "ok" or "export error: ..."
The models are seeded, in eval mode, with perturb() applied.
"""
import json
import os
import sys
import traceback

import numpy as np
import torch
from torch import nn

VOCAB, D, HEADS, LAYERS, SEQ, BATCH, CLASSES = 100, 32, 4, 2, 8, 2, 3
# Larger than HF's 0.02 so attention is peaked and logits are of order one.
INIT = 0.2


def perturb(model):
    """Adds noise to equal-valued params (norm weights of ones, zero
    biases), so that the exporters keep them apart, and gives BatchNorm
    the running statistics of a trained model."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            if p.numel() > 1 and bool((p == p.flatten()[0]).all()):
                p.add_(torch.randn(p.shape, generator=g) * 0.1)
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm) and \
                    m.running_mean is not None:
                m.running_mean.normal_(0.0, 0.1, generator=g)
                m.running_var.uniform_(0.5, 1.5, generator=g)


class Wrap(nn.Module):
    """Calls the model with keyword inputs, returns one output tensor."""

    def __init__(self, model, keys, out="logits", **kw):
        super().__init__()
        self.m = model
        self.keys = keys
        self.out = out
        self.kw = kw

    def forward(self, *args):
        r = self.m(**dict(zip(self.keys, args)), **self.kw)
        if isinstance(r, torch.Tensor):
            return r
        return getattr(r, self.out)


def text_inputs():
    """Token ids and attention mask; the second row is right-padded."""
    g = torch.Generator().manual_seed(3)
    ids = torch.randint(3, VOCAB, (BATCH, SEQ), generator=g)
    mask = torch.ones(BATCH, SEQ, dtype=torch.int64)
    mask[1, 5:] = 0  # right padding on the second row
    ids[1, 5:] = 1  # pad id 1 (models below use pad_token_id=1)
    return ids, mask


def image(size=32, ch=3):
    """A batch of random images."""
    g = torch.Generator().manual_seed(4)
    return torch.randn(BATCH, ch, size, size, generator=g)


def text(model, mask=True, **kw):
    """Wraps a model called with input_ids (and attention_mask)."""
    ids, attn = text_inputs()
    if not mask:
        return Wrap(model, ["input_ids"], **kw), (ids,), ["ids"]
    return Wrap(model, ["input_ids", "attention_mask"], **kw), (ids, attn), \
        ["ids", "mask"]


def causal(cfg_cls, model_cls, **cfg):
    """A decoder-only LM of the common config keys, without KV cache."""
    base = dict(vocab_size=VOCAB, hidden_size=D, intermediate_size=2 * D,
                num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                max_position_embeddings=32, pad_token_id=1,
                tie_word_embeddings=False, initializer_range=INIT)
    base.update(cfg)
    return text(model_cls(cfg_cls(**base)), use_cache=False)


def encoder(cfg_cls, model_cls, mask=True, **cfg):
    """A BERT-like sequence classifier of the common config keys."""
    base = dict(vocab_size=VOCAB, hidden_size=D, num_hidden_layers=LAYERS,
                num_attention_heads=HEADS, intermediate_size=2 * D,
                max_position_embeddings=32, num_labels=CLASSES,
                hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                pad_token_id=1, initializer_range=INIT)
    base.update(cfg)
    return text(model_cls(cfg_cls(**base)), mask=mask)


def vision(cfg_cls, model_cls, size=32, out="logits", **cfg):
    """An image model called with pixel_values of size x size."""
    model = model_cls(cfg_cls(**cfg))
    return Wrap(model, ["pixel_values"], out=out), (image(size),), ["x"]


def build(name):
    """(module, input tensors, input names) of the model NAME."""
    import transformers as T
    if name == "mistral":
        return causal(T.MistralConfig, T.MistralForCausalLM,
                      num_key_value_heads=2, sliding_window=None)
    if name == "qwen2":
        return causal(T.Qwen2Config, T.Qwen2ForCausalLM,
                      num_key_value_heads=2)
    if name == "gemma":
        return causal(T.GemmaConfig, T.GemmaForCausalLM,
                      num_key_value_heads=2, head_dim=8)
    if name == "gemma2":
        return causal(T.Gemma2Config, T.Gemma2ForCausalLM,
                      num_key_value_heads=2, head_dim=8, sliding_window=4)
    if name == "phi":
        return causal(T.PhiConfig, T.PhiForCausalLM, resid_pdrop=0.0,
                      embd_pdrop=0.0)
    if name == "gpt_neox":
        return causal(T.GPTNeoXConfig, T.GPTNeoXForCausalLM,
                      hidden_dropout=0.0, attention_dropout=0.0)
    if name == "falcon":
        model = T.FalconForCausalLM(T.FalconConfig(
            vocab_size=VOCAB, hidden_size=D, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, pad_token_id=1,
            hidden_dropout=0.0, attention_dropout=0.0,
            tie_word_embeddings=False, initializer_range=INIT))
        return text(model, use_cache=False)
    if name == "bloom":
        model = T.BloomForCausalLM(T.BloomConfig(
            vocab_size=VOCAB, hidden_size=D, n_layer=LAYERS, n_head=HEADS,
            pad_token_id=1, hidden_dropout=0.0, attention_dropout=0.0,
            tie_word_embeddings=False, initializer_range=INIT))
        return text(model, use_cache=False)
    if name == "distilbert":
        model = T.DistilBertForSequenceClassification(T.DistilBertConfig(
            vocab_size=VOCAB, dim=D, n_layers=LAYERS, n_heads=HEADS,
            hidden_dim=2 * D, max_position_embeddings=32, num_labels=CLASSES,
            dropout=0.0, attention_dropout=0.0, seq_classif_dropout=0.0,
            pad_token_id=1, initializer_range=INIT))
        return text(model)
    if name == "albert":
        return encoder(T.AlbertConfig, T.AlbertForSequenceClassification,
                       embedding_size=16, classifier_dropout_prob=0.0)
    if name == "electra":
        return encoder(T.ElectraConfig, T.ElectraForSequenceClassification,
                       embedding_size=16)
    if name == "xlm_roberta":
        return encoder(T.XLMRobertaConfig,
                       T.XLMRobertaForSequenceClassification)
    if name == "mpnet":
        return encoder(T.MPNetConfig, T.MPNetForSequenceClassification)
    if name == "funnel":
        model = T.FunnelForSequenceClassification(T.FunnelConfig(
            vocab_size=VOCAB, d_model=D, n_head=HEADS, d_head=D // HEADS,
            d_inner=2 * D, block_sizes=[1, 1], num_decoder_layers=1,
            hidden_dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
            num_labels=CLASSES, pad_token_id=1))
        return text(model)
    if name == "convnext":
        return vision(T.ConvNextConfig, T.ConvNextForImageClassification,
                      num_channels=3, hidden_sizes=[8, 16], depths=[1, 1],
                      num_stages=2, num_labels=CLASSES)
    if name == "resnet_hf":
        return vision(T.ResNetConfig, T.ResNetForImageClassification,
                      embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                      layer_type="bottleneck", num_labels=CLASSES)
    if name in ("efficientnet", "efficientnet_max"):
        return vision(T.EfficientNetConfig,
                      T.EfficientNetForImageClassification, image_size=32,
                      width_coefficient=0.25, depth_coefficient=0.25,
                      hidden_dim=320, dropout_rate=0.0, num_labels=CLASSES,
                      pooling_type="max" if name.endswith("_max")
                      else "mean")
    if name == "regnet":
        return vision(T.RegNetConfig, T.RegNetForImageClassification,
                      embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                      groups_width=8, num_labels=CLASSES)
    if name == "segformer":
        return vision(T.SegformerConfig,
                      T.SegformerForImageClassification, num_encoder_blocks=2,
                      depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[16, 32],
                      patch_sizes=[7, 3], strides=[4, 2],
                      num_attention_heads=[1, 2], mlp_ratios=[2, 2],
                      hidden_dropout_prob=0.0,
                      attention_probs_dropout_prob=0.0, drop_path_rate=0.0,
                      num_labels=CLASSES)
    if name == "deit":
        return vision(T.DeiTConfig, T.DeiTForImageClassification,
                      image_size=32, patch_size=8, hidden_size=D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                      intermediate_size=2 * D, num_labels=CLASSES,
                      hidden_dropout_prob=0.0, initializer_range=INIT,
                      attention_probs_dropout_prob=0.0)
    if name == "beit":
        return vision(T.BeitConfig, T.BeitForImageClassification,
                      image_size=32, patch_size=8, hidden_size=D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                      intermediate_size=2 * D, num_labels=CLASSES,
                      use_relative_position_bias=True,
                      hidden_dropout_prob=0.0, initializer_range=INIT,
                      attention_probs_dropout_prob=0.0)
    if name == "dinov2":
        return vision(T.Dinov2Config, T.Dinov2ForImageClassification,
                      image_size=32, patch_size=8, hidden_size=D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                      mlp_ratio=2, num_labels=CLASSES,
                      hidden_dropout_prob=0.0, initializer_range=INIT,
                      attention_probs_dropout_prob=0.0)
    if name == "mobilevit":
        return vision(T.MobileViTConfig, T.MobileViTForImageClassification,
                      size=64, image_size=64, hidden_sizes=[16, 24, 32],
                      neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 48],
                      num_attention_heads=2, num_labels=CLASSES,
                      hidden_dropout_prob=0.0,
                      attention_probs_dropout_prob=0.0,
                      classifier_dropout_prob=0.0)
    if name == "poolformer":
        return vision(T.PoolFormerConfig, T.PoolFormerForImageClassification,
                      hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1],
                      num_labels=CLASSES)
    if name == "clip_vision":
        return vision(T.CLIPVisionConfig, T.CLIPVisionModel,
                      out="pooler_output", image_size=32, patch_size=8,
                      hidden_size=D, intermediate_size=2 * D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                      initializer_factor=10.0)
    if name == "clip_text":
        model = T.CLIPTextModel(T.CLIPTextConfig(
            vocab_size=VOCAB, hidden_size=D, intermediate_size=2 * D,
            num_hidden_layers=LAYERS, num_attention_heads=HEADS,
            max_position_embeddings=32, pad_token_id=1, eos_token_id=2,
            initializer_factor=10.0))
        return text(model, out="last_hidden_state")
    if name in ("whisper", "whisper_decmask"):
        cfg = T.WhisperConfig(
            vocab_size=VOCAB, num_mel_bins=16, encoder_layers=LAYERS,
            decoder_layers=LAYERS, encoder_attention_heads=HEADS,
            decoder_attention_heads=HEADS, d_model=D,
            encoder_ffn_dim=2 * D, decoder_ffn_dim=2 * D,
            max_source_positions=16, max_target_positions=32,
            pad_token_id=1, bos_token_id=2, eos_token_id=2,
            decoder_start_token_id=2, dropout=0.0, attention_dropout=0.0,
            activation_dropout=0.0, init_std=INIT)
        model = T.WhisperForConditionalGeneration(cfg)
        g = torch.Generator().manual_seed(6)
        feats = torch.randn(BATCH, 16, 32, generator=g)
        dec = torch.randint(3, VOCAB, (BATCH, SEQ), generator=g)
        if name == "whisper_decmask":
            # with a decoder_attention_mask, transformers skips the
            # packed-sequence check (torch.diff) that the TorchScript
            # exporter cannot export
            dmask = torch.ones(BATCH, SEQ, dtype=torch.int64)
            dmask[1, 6:] = 0
            return Wrap(model, ["input_features", "decoder_input_ids",
                                "decoder_attention_mask"], use_cache=False), \
                (feats, dec, dmask), ["features", "dec_ids", "dec_mask"]
        return Wrap(model, ["input_features", "decoder_input_ids"],
                    use_cache=False), (feats, dec), ["features", "dec_ids"]
    # ---- EXTRAS ----
    if name == "mistral_leftpad":
        m, (ids, mask), n = causal(T.MistralConfig, T.MistralForCausalLM,
                                   num_key_value_heads=2, sliding_window=None)
        mask = mask.flip(1)
        ids = torch.where(mask == 0, torch.ones_like(ids), ids.flip(1))
        return m, (ids, mask), n
    # *_eager: transformers' eager experts loop instead of its default
    # grouped_mm custom op (which the torch.export-based exporter rejects);
    # *_batched: its batched_mm experts, each token's experts' weights
    # gathered and applied by bmm (static shapes)
    moe_kw = {"experts_implementation": "eager"} if name.endswith("_eager") \
        else {"experts_implementation": "batched_mm"} \
        if name.endswith("_batched") else {}
    if name in ("mixtral", "mixtral_eager", "mixtral_batched"):
        return causal(T.MixtralConfig, T.MixtralForCausalLM,
                      num_key_value_heads=2, num_local_experts=4,
                      num_experts_per_tok=2, sliding_window=None, **moe_kw)
    if name in ("qwen2_moe", "qwen2_moe_eager", "qwen2_moe_batched"):
        return causal(T.Qwen2MoeConfig, T.Qwen2MoeForCausalLM,
                      num_key_value_heads=2, num_experts=4,
                      num_experts_per_tok=2, moe_intermediate_size=16,
                      shared_expert_intermediate_size=16, **moe_kw)
    if name == "qwen3":
        return causal(T.Qwen3Config, T.Qwen3ForCausalLM,
                      num_key_value_heads=2, head_dim=8)
    if name == "phi3":
        return causal(T.Phi3Config, T.Phi3ForCausalLM,
                      num_key_value_heads=2, resid_pdrop=0.0,
                      embd_pdrop=0.0, sliding_window=None)
    if name == "gemma3":
        return causal(T.Gemma3TextConfig, T.Gemma3ForCausalLM,
                      num_key_value_heads=2, head_dim=8, sliding_window=4)
    if name == "stablelm":
        return causal(T.StableLmConfig, T.StableLmForCausalLM,
                      num_key_value_heads=2)
    if name == "olmo2":
        return causal(T.Olmo2Config, T.Olmo2ForCausalLM,
                      num_key_value_heads=2)
    if name == "starcoder2":
        return causal(T.Starcoder2Config, T.Starcoder2ForCausalLM,
                      num_key_value_heads=2, sliding_window=None,
                      residual_dropout=0.0, embedding_dropout=0.0)
    if name in ("gptj", "codegen", "gpt_bigcode"):
        cls = {"gptj": (T.GPTJConfig, T.GPTJForCausalLM),
               "codegen": (T.CodeGenConfig, T.CodeGenForCausalLM),
               "gpt_bigcode": (T.GPTBigCodeConfig,
                               T.GPTBigCodeForCausalLM)}[name]
        kw = dict(vocab_size=VOCAB, n_embd=D, n_layer=LAYERS, n_head=HEADS,
                  n_positions=32, resid_pdrop=0.0, embd_pdrop=0.0,
                  attn_pdrop=0.0, pad_token_id=1,
                  tie_word_embeddings=False, initializer_range=INIT)
        if name != "gpt_bigcode":
            kw["rotary_dim"] = 4
        model = cls[1](cls[0](**kw))
        return text(model, use_cache=False)
    if name == "gpt_neo":
        model = T.GPTNeoForCausalLM(T.GPTNeoConfig(
            vocab_size=VOCAB, hidden_size=D, num_layers=LAYERS,
            attention_types=[[["global", "local"], 1]], num_heads=HEADS,
            window_size=4, max_position_embeddings=32, resid_dropout=0.0,
            embed_dropout=0.0, attention_dropout=0.0, pad_token_id=1,
            tie_word_embeddings=False, initializer_range=INIT))
        return text(model, use_cache=False)
    if name == "modernbert":
        return encoder(T.ModernBertConfig,
                       T.ModernBertForSequenceClassification,
                       global_attn_every_n_layers=2, local_attention=4,
                       classifier_dropout=0.0)
    if name == "deberta":
        return encoder(T.DebertaConfig, T.DebertaForSequenceClassification,
                       relative_attention=True, max_relative_positions=8,
                       pos_att_type=["c2p", "p2c"])
    if name == "deberta_v2":
        # DeBERTa-v3's architecture: log-bucketed relative positions shared
        # between the layers (share_att_key), a convolution in the
        # embeddings' first layer
        return encoder(T.DebertaV2Config, T.DebertaV2ForSequenceClassification,
                       relative_attention=True, max_relative_positions=-1,
                       position_buckets=8, norm_rel_ebd="layer_norm",
                       share_att_key=True, pos_att_type=["p2c", "c2p"],
                       position_biased_input=False, conv_kernel_size=3)
    if name == "convbert":
        return encoder(T.ConvBertConfig, T.ConvBertForSequenceClassification,
                       embedding_size=D, conv_kernel_size=3)
    if name == "squeezebert":
        return encoder(T.SqueezeBertConfig,
                       T.SqueezeBertForSequenceClassification,
                       embedding_size=D, q_groups=2, k_groups=2, v_groups=2,
                       post_attention_groups=2, intermediate_groups=2,
                       output_groups=2)
    if name == "mobilebert":
        return encoder(T.MobileBertConfig,
                       T.MobileBertForSequenceClassification,
                       embedding_size=16, intra_bottleneck_size=16,
                       num_feedforward_networks=2, true_hidden_size=16)
    if name == "levit":
        return vision(T.LevitConfig, T.LevitForImageClassification, size=64,
                      image_size=64, hidden_sizes=[16, 24, 32],
                      num_attention_heads=[1, 2, 2], depths=[1, 1, 1],
                      key_dim=[8, 8, 8],
                      down_ops=[["Subsample", 8, 1, 2, 2, 2],
                                ["Subsample", 8, 2, 2, 2, 2]],
                      num_labels=CLASSES)
    if name == "cvt":
        return vision(T.CvtConfig, T.CvtForImageClassification,
                      embed_dim=[16, 32], num_heads=[1, 2], depth=[2, 2],
                      patch_sizes=[7, 3], patch_stride=[4, 2],
                      patch_padding=[2, 1], mlp_ratio=[2.0, 2.0],
                      attention_drop_rate=[0.0, 0.0],
                      drop_rate=[0.0, 0.0], drop_path_rate=[0.0, 0.0],
                      qkv_bias=[True, True], cls_token=[False, True],
                      qkv_projection_method=["dw_bn", "dw_bn"],
                      kernel_qkv=[3, 3], padding_kv=[1, 1],
                      stride_kv=[2, 2], padding_q=[1, 1], stride_q=[1, 1],
                      num_labels=CLASSES)
    if name == "swinv2":
        return vision(T.Swinv2Config, T.Swinv2ForImageClassification,
                      image_size=32, patch_size=4, embed_dim=16,
                      depths=[1, 1], num_heads=[2, 4], window_size=4,
                      num_labels=CLASSES)
    if name == "convnextv2":
        return vision(T.ConvNextV2Config, T.ConvNextV2ForImageClassification,
                      hidden_sizes=[8, 16], depths=[1, 1], num_stages=2,
                      num_labels=CLASSES)
    if name == "mobilenet_v1":
        return vision(T.MobileNetV1Config,
                      T.MobileNetV1ForImageClassification, image_size=32,
                      depth_multiplier=0.25, num_labels=CLASSES)
    if name == "bit":
        return vision(T.BitConfig, T.BitForImageClassification,
                      embedding_size=32, hidden_sizes=[32, 64],
                      depths=[1, 1], num_groups=4, num_labels=CLASSES)
    if name == "pvt_v2":
        return vision(T.PvtV2Config, T.PvtV2ForImageClassification,
                      image_size=32, num_encoder_blocks=2, depths=[1, 1],
                      sr_ratios=[2, 1], hidden_sizes=[16, 32],
                      patch_sizes=[7, 3], strides=[4, 2],
                      num_attention_heads=[1, 2], mlp_ratios=[2, 2],
                      num_labels=CLASSES)
    if name == "siglip_vision":
        return vision(T.SiglipVisionConfig, T.SiglipVisionModel,
                      out="pooler_output", image_size=32, patch_size=8,
                      hidden_size=D, intermediate_size=2 * D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS)
    if name in ("wav2vec2", "hubert", "wavlm"):
        cls = {"wav2vec2": (T.Wav2Vec2Config, T.Wav2Vec2ForCTC),
               "hubert": (T.HubertConfig, T.HubertForCTC),
               "wavlm": (T.WavLMConfig, T.WavLMForCTC)}[name]
        model = cls[1](cls[0](
            vocab_size=VOCAB, hidden_size=D, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, intermediate_size=2 * D,
            conv_dim=(16, 16, 16), conv_stride=(5, 4, 2),
            conv_kernel=(10, 4, 2), num_conv_pos_embeddings=8,
            num_conv_pos_embedding_groups=4, hidden_dropout=0.0,
            attention_dropout=0.0, activation_dropout=0.0,
            feat_proj_dropout=0.0, final_dropout=0.0, layerdrop=0.0,
            mask_time_prob=0.0, do_stable_layer_norm=False,
            initializer_range=INIT))
        g = torch.Generator().manual_seed(5)
        x = torch.randn(BATCH, 1600, generator=g)
        return Wrap(model, ["input_values"]), (x,), ["audio"]
    if name == "dinov2_interp":
        # 48 x 48 images on a config of 32: the position embeddings are
        # interpolated (bicubic), as DINOv2 (config 518) at 224 does
        m, _, n = vision(T.Dinov2Config, T.Dinov2ForImageClassification,
                         image_size=32, patch_size=8, hidden_size=D,
                         num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                         mlp_ratio=2, num_labels=CLASSES,
                         initializer_range=INIT)
        return m, (image(48),), n
    if name == "vit_interp":
        model = T.ViTForImageClassification(T.ViTConfig(
            image_size=32, patch_size=8, hidden_size=D,
            num_hidden_layers=LAYERS, num_attention_heads=HEADS,
            intermediate_size=2 * D, num_labels=CLASSES,
            initializer_range=INIT))
        return Wrap(model, ["pixel_values"], interpolate_pos_encoding=True), \
            (image(48),), ["x"]
    if name == "segformer_seg":
        return vision(T.SegformerConfig,
                      T.SegformerForSemanticSegmentation,
                      num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
                      hidden_sizes=[16, 32], patch_sizes=[7, 3],
                      strides=[4, 2], num_attention_heads=[1, 2],
                      mlp_ratios=[2, 2], decoder_hidden_size=16,
                      num_labels=CLASSES, classifier_dropout_prob=0.0)
    if name == "dpt":
        return vision(T.DPTConfig, T.DPTForDepthEstimation,
                      out="predicted_depth", image_size=32, patch_size=8,
                      hidden_size=D, num_hidden_layers=4,
                      num_attention_heads=HEADS, intermediate_size=2 * D,
                      backbone_out_indices=[0, 1, 2, 3],
                      neck_hidden_sizes=[8, 16, 16, 32], fusion_hidden_size=16,
                      reassemble_factors=[4, 2, 1, 0.5],
                      initializer_range=INIT)
    if name == "yolos":
        return vision(T.YolosConfig, T.YolosForObjectDetection,
                      image_size=[32, 32], patch_size=8, hidden_size=D,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                      intermediate_size=2 * D, num_detection_tokens=4,
                      num_labels=CLASSES, initializer_range=INIT)
    if name == "mobilevitv2":
        return vision(T.MobileViTV2Config,
                      T.MobileViTV2ForImageClassification, size=64,
                      image_size=64, width_multiplier=0.25,
                      num_labels=CLASSES, classifier_dropout_prob=0.0)
    if name == "swiftformer":
        return vision(T.SwiftFormerConfig,
                      T.SwiftFormerForImageClassification,
                      depths=[1, 1, 1, 1], embed_dims=[8, 16, 24, 32],
                      num_labels=CLASSES)
    if name in ("fnet", "roformer", "nystromformer", "rembert", "esm"):
        cfg, cls = {
            "fnet": (T.FNetConfig, T.FNetForSequenceClassification),
            "roformer": (T.RoFormerConfig,
                         T.RoFormerForSequenceClassification),
            "nystromformer": (T.NystromformerConfig,
                              T.NystromformerForSequenceClassification),
            "rembert": (T.RemBertConfig, T.RemBertForSequenceClassification),
            "esm": (T.EsmConfig, T.EsmForSequenceClassification)}[name]
        kw = {}
        if name == "fnet":
            kw = dict(use_tpu_fourier_optimizations=False)
        if name == "nystromformer":
            kw = dict(num_landmarks=4, segment_means_seq_len=SEQ,
                      conv_kernel_size=3)
        if name == "rembert":
            kw = dict(input_embedding_size=16, output_embedding_size=16)
        if name == "esm":
            kw = dict(position_embedding_type="rotary", mask_token_id=2)
        if name == "fnet":
            # FNet has no attention mask input
            model = cls(cfg(vocab_size=VOCAB, hidden_size=D,
                            num_hidden_layers=LAYERS, intermediate_size=2 * D,
                            max_position_embeddings=32, num_labels=CLASSES,
                            hidden_dropout_prob=0.0, pad_token_id=1,
                            initializer_range=INIT, **kw))
            return text(model, mask=False)
        if name == "nystromformer":
            # its landmark attention fails in eager with an attention mask
            # (transformers 5.25): called with ids only
            return encoder(cfg, cls, mask=False, **kw)
        return encoder(cfg, cls, **kw)
    if name == "xlnet":
        model = T.XLNetForSequenceClassification(T.XLNetConfig(
            vocab_size=VOCAB, d_model=D, n_layer=LAYERS, n_head=HEADS,
            d_inner=2 * D, dropout=0.0, num_labels=CLASSES, pad_token_id=1,
            initializer_range=INIT))
        return text(model, use_cache=False)
    if name in ("longformer", "big_bird"):
        cfg, cls = {
            "longformer": (T.LongformerConfig,
                           T.LongformerForSequenceClassification),
            "big_bird": (T.BigBirdConfig,
                         T.BigBirdForSequenceClassification)}[name]
        kw = dict(attention_window=4) if name == "longformer" else \
            dict(attention_type="block_sparse", block_size=2,
                 num_random_blocks=1)
        return encoder(cfg, cls, **kw)
    if name in ("biogpt", "xglm", "mpt", "ctrl"):
        if name == "biogpt":
            model = T.BioGptForCausalLM(T.BioGptConfig(
                vocab_size=VOCAB, hidden_size=D, num_hidden_layers=LAYERS,
                num_attention_heads=HEADS, intermediate_size=2 * D,
                max_position_embeddings=32, hidden_dropout_prob=0.0,
                attention_probs_dropout_prob=0.0, pad_token_id=1,
                initializer_range=INIT))
        elif name == "xglm":
            model = T.XGLMForCausalLM(T.XGLMConfig(
                vocab_size=VOCAB, d_model=D, num_layers=LAYERS,
                attention_heads=HEADS, ffn_dim=2 * D,
                max_position_embeddings=32, dropout=0.0,
                attention_dropout=0.0, activation_dropout=0.0,
                pad_token_id=1, init_std=INIT))
        elif name == "mpt":
            model = T.MptForCausalLM(T.MptConfig(
                vocab_size=VOCAB, d_model=D, n_layers=LAYERS, n_heads=HEADS,
                expansion_ratio=2, max_seq_len=32, pad_token_id=1,
                initializer_range=INIT))
        else:
            model = T.CTRLLMHeadModel(T.CTRLConfig(
                vocab_size=VOCAB, n_embd=D, n_layer=LAYERS, n_head=HEADS,
                dff=2 * D, n_positions=32, resid_pdrop=0.0, embd_pdrop=0.0,
                pad_token_id=1, initializer_range=INIT))
        return text(model, use_cache=False)
    if name == "mamba":
        model = T.MambaForCausalLM(T.MambaConfig(
            vocab_size=VOCAB, hidden_size=D, state_size=4,
            num_hidden_layers=LAYERS, expand=2, conv_kernel=4,
            pad_token_id=1, initializer_range=INIT, use_mambapy=False))
        return text(model, mask=False, use_cache=False)
    if name in ("pegasus", "marian"):
        cfg, cls = {"pegasus": (T.PegasusConfig,
                                T.PegasusForConditionalGeneration),
                    "marian": (T.MarianConfig, T.MarianMTModel)}[name]
        model = cls(cfg(vocab_size=VOCAB, d_model=D, encoder_layers=LAYERS,
                        decoder_layers=LAYERS, encoder_attention_heads=HEADS,
                        decoder_attention_heads=HEADS,
                        encoder_ffn_dim=2 * D, decoder_ffn_dim=2 * D,
                        max_position_embeddings=32, dropout=0.0,
                        attention_dropout=0.0, activation_dropout=0.0,
                        pad_token_id=1, decoder_start_token_id=2,
                        init_std=INIT))
        ids, mask = text_inputs()
        g = torch.Generator().manual_seed(7)
        dec = torch.randint(3, VOCAB, (BATCH, SEQ), generator=g)
        return Wrap(model, ["input_ids", "attention_mask",
                            "decoder_input_ids"], use_cache=False), \
            (ids, mask, dec), ["ids", "mask", "dec_ids"]
    if name == "detr":
        bb = T.ResNetConfig(embedding_size=8, hidden_sizes=[8, 16, 16, 32],
                            depths=[1, 1, 1, 1], layer_type="basic",
                            out_features=["stage4"])
        return vision(T.DetrConfig, T.DetrForObjectDetection, size=64,
                      backbone_config=bb, use_timm_backbone=False,
                      use_pretrained_backbone=False, d_model=D,
                      encoder_layers=1, decoder_layers=1,
                      encoder_attention_heads=HEADS,
                      decoder_attention_heads=HEADS, encoder_ffn_dim=2 * D,
                      decoder_ffn_dim=2 * D, num_queries=4, dropout=0.0,
                      attention_dropout=0.0, activation_dropout=0.0,
                      num_labels=CLASSES, init_std=INIT)
    if name == "focalnet":
        return vision(T.FocalNetConfig, T.FocalNetForImageClassification,
                      image_size=32, patch_size=4, embed_dim=16,
                      depths=[1, 1], focal_levels=[2, 2],
                      focal_windows=[3, 3], num_labels=CLASSES,
                      hidden_dropout_prob=0.0, drop_path_rate=0.0)
    if name == "upernet":
        bb = T.ConvNextConfig(hidden_sizes=[8, 16, 24, 32],
                              depths=[1, 1, 1, 1],
                              out_features=["stage1", "stage2", "stage3",
                                            "stage4"])
        return vision(T.UperNetConfig, T.UperNetForSemanticSegmentation,
                      size=64, backbone_config=bb, hidden_size=16,
                      auxiliary_in_channels=24, use_auxiliary_head=False,
                      num_labels=CLASSES)
    if name == "glpn":
        return vision(T.GLPNConfig, T.GLPNForDepthEstimation,
                      out="predicted_depth", num_encoder_blocks=2,
                      depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[16, 32],
                      patch_sizes=[7, 3], strides=[4, 2],
                      num_attention_heads=[1, 2], mlp_ratios=[2, 2],
                      decoder_hidden_size=16, head_in_index=-1)
    if name.startswith("tv_"):
        import torchvision.models as M
        arch = name[3:]
        kw = dict(weights=None, num_classes=10)
        size = 64
        if arch in ("vit_b_16", "swin_t", "maxvit_t"):
            size = 224
        if arch == "inception_v3":
            size, kw["aux_logits"], kw["init_weights"] = 96, False, True
        if arch == "googlenet":
            kw["aux_logits"], kw["init_weights"] = False, True
        model = getattr(M, arch)(**kw)
        return model, (image(size),), ["x"]
    if name.startswith("ta_"):
        return audio(name[3:])
    raise SystemExit("unknown model " + name)


class MelClassifier(nn.Module):
    """torchaudio's MelSpectrogram (torch.stft with a Hann window, center
    reflect padding, a mel filter bank) in dB, a Conv1d and a Linear: a
    keyword spotter of raw 16 kHz waves."""

    def __init__(self):
        super().__init__()
        import torchaudio.transforms as AT
        self.mel = AT.MelSpectrogram(sample_rate=16000, n_fft=400,
                                     hop_length=160, n_mels=40)
        self.db = AT.AmplitudeToDB()
        self.conv = nn.Conv1d(40, 16, 3, padding=1)
        self.fc = nn.Linear(16, CLASSES)

    def forward(self, wav):
        x = torch.relu(self.conv(self.db(self.mel(wav))))
        return self.fc(x.mean(-1))


def audio(arch):
    """torchaudio's models (`ta_*`) on raw waves or features, batch 2."""
    import torchaudio.models as AM
    if arch == "melnet":
        return MelClassifier(), (torch.randn(BATCH, 8000),), ["wav"]
    if arch == "convtasnet":
        model = AM.ConvTasNet(num_sources=2, enc_kernel_size=16,
                              enc_num_feats=32, msk_kernel_size=3,
                              msk_num_feats=16, msk_num_hidden_feats=32,
                              msk_num_layers=2, msk_num_stacks=1)
        return model, (torch.randn(BATCH, 1, 800),), ["wav"]
    if arch == "wav2letter":
        model = AM.Wav2Letter(num_classes=10, input_type="waveform",
                              num_features=1)
        return model, (torch.randn(BATCH, 1, 4000),), ["wav"]
    if arch == "deepspeech":
        model = AM.DeepSpeech(n_feature=20, n_hidden=32, n_class=10)
        return model, (torch.randn(BATCH, 1, 30, 20),), ["x"]
    raise SystemExit("unknown model ta_" + arch)


NAMES = ["mistral", "qwen2", "gemma", "gemma2", "phi", "gpt_neox", "falcon",
         "bloom", "distilbert", "albert", "electra", "xlm_roberta", "mpnet",
         "funnel", "convnext", "resnet_hf", "efficientnet", "regnet",
         "segformer", "deit", "beit", "dinov2", "mobilevit", "poolformer",
         "clip_vision", "clip_text", "wav2vec2", "whisper",
         "tv_resnet18", "tv_mobilenet_v3_small", "tv_efficientnet_b0",
         "tv_convnext_tiny", "tv_regnet_y_400mf", "tv_shufflenet_v2_x0_5",
         "tv_densenet121", "tv_squeezenet1_1", "tv_vit_b_16"]
EXTRAS = ["mistral_leftpad", "mixtral", "qwen2_moe", "mixtral_eager",
          "qwen2_moe_eager", "mixtral_batched", "qwen2_moe_batched",
          "qwen3", "phi3",
          "gemma3", "stablelm", "olmo2", "starcoder2", "gptj", "codegen",
          "gpt_bigcode", "gpt_neo", "modernbert", "deberta", "deberta_v2", "convbert",
          "squeezebert", "mobilebert", "levit", "cvt", "swinv2",
          "convnextv2", "mobilenet_v1", "bit", "pvt_v2", "siglip_vision",
          "hubert", "wavlm", "tv_mnasnet0_5", "tv_resnext50_32x4d",
          "tv_googlenet", "tv_inception_v3", "tv_alexnet", "tv_vgg11_bn",
          "tv_efficientnet_v2_s", "tv_swin_t", "tv_maxvit_t",
          "tv_mobilenet_v3_large", "tv_regnet_x_400mf", "tv_wide_resnet50_2",
          "efficientnet_max", "dinov2_interp", "vit_interp", "segformer_seg",
          "dpt", "yolos", "mobilevitv2", "swiftformer", "fnet", "roformer",
          "nystromformer", "rembert", "esm", "xlnet", "longformer",
          "big_bird", "biogpt", "xglm", "mpt", "ctrl", "mamba", "pegasus",
          "marian", "whisper_decmask", "detr", "focalnet", "upernet", "glpn",
          "ta_melnet", "ta_convtasnet", "ta_wav2letter", "ta_deepspeech"]


def export(model, args, in_names, path, exporter):
    """Exports with TorchScript (opset 17) or dynamo (default opset)."""
    names = dict(input_names=in_names, output_names=["logits"])
    if exporter == "script":
        torch.onnx.export(model, args, path, dynamo=False, opset_version=17,
                          **names)
    else:
        torch.onnx.export(model, args, path, dynamo=True,
                          external_data=False, **names)


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(NAMES + EXTRAS))
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name = sys.argv[1]
    outdir = os.path.join(sys.argv[2], name)
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        os.remove(os.path.join(outdir, f))
    torch.manual_seed(0)
    model, args, in_names = build(name)
    model.eval()
    perturb(model)
    with torch.no_grad():
        out = model(*args)
    for i, a in enumerate(args):
        np.save(os.path.join(outdir, f"in{i}.npy"), a.numpy())
    np.save(os.path.join(outdir, "logits.npy"),
            out.detach().float().numpy())
    meta = dict(name=name, inputs=in_names,
                shapes=[list(a.shape) for a in args],
                out_shape=list(out.shape))
    for exp in ("script", "dynamo"):
        path = os.path.join(outdir, exp + ".onnx")
        try:
            export(model, args, in_names, path, exp)
            meta[exp] = "ok"
        except Exception as e:  # noqa: BLE001
            msg = f"{type(e).__name__}: {e}"
            with open(os.path.join(outdir, exp + ".err"), "w") as f:
                f.write(msg + "\n\n" + traceback.format_exc())
            meta[exp] = "export error: " + msg.strip().splitlines()[0][:300]
            if os.path.exists(path):
                os.remove(path)
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
