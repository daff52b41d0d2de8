"""The real-model suite: architectures people compile, built from their configs with random weights.

Every model comes from `transformers` (and, where it imports, `timm`), so nothing is downloaded. Each is a
Workload (kiln.tools.workloads) with three size presets, like the design documents' examples:
"tiny" for the tests, "quick" for the 2-core CPU (both small configs: 2 layers, narrow, short inputs) and
"gpu" (the model's default config, text at batch 8 x 512 tokens, images at batch 32 x 224 x 224).
A model returns its logits; --train differentiates their sum. Dropout is off, so that a training step is
a function of its inputs and can be checked against eager and fp64.

    kiln bench --suite models                    # the small models on the CPU
    kiln bench --suite models --device cuda      # the full-size models on a GPU
"""
import importlib
import logging

import torch
from torch import nn

from kiln.tools.workloads import Workload

log = logging.getLogger("kiln")


class Logits(nn.Module):
    """A transformers/timm model as a module of tensors: inputs in (passed by the names given), logits out."""

    def __init__(self, model, names=()):
        super().__init__()
        self.model, self.names = model, names

    def forward(self, *inputs):
        out = self.model(**dict(zip(self.names, inputs))) if self.names else self.model(*inputs)
        return out if isinstance(out, torch.Tensor) else out.logits


def without_dropout(config):
    """The config with every dropout probability at 0 (attribute names differ from model to model)."""
    for name in list(vars(config)):
        if ("dropout" in name or name.endswith(("pdrop", "drop_rate", "drop_path_rate"))) and \
                isinstance(getattr(config, name), float):
            setattr(config, name, 0.0)
    return config


def hf(config_class, model_class, names=("input_ids",)):
    """A builder of a transformers model from a size's config overrides; names: its inputs, in order."""
    def build(size):
        transformers = importlib.import_module("transformers")
        config = getattr(transformers, config_class)(**size.get("config", {}))
        return Logits(getattr(transformers, model_class)(without_dropout(config)), names)
    return build


SEQ2SEQ = ("input_ids", "decoder_input_ids")
IMAGES = ("pixel_values",)


def timm_model(name):
    def build(size):
        timm = importlib.import_module("timm")
        # a model whose config fixes its input size (ViT and DeiT: their position embeddings) is built for the
        # size's images; the others take any size as they are
        cfg = timm.models.get_pretrained_cfg(name)
        fixed = dict(img_size=size["hw"]) if cfg is not None and cfg.fixed_input_size else {}
        return Logits(timm.create_model(name, pretrained=False, drop_rate=0.0, drop_path_rate=0.0, **fixed))
    return build


def tokens(*names):
    """Inputs: random token ids for each of names (input_ids, decoder_input_ids) of the size's shape."""
    def make(size, g):
        return [torch.randint(size["vocab"], (size["batch"], size["seq"]), generator=g, device=g.device)
                for _ in names]
    return make


def images(size, g):
    return [torch.randn(size["batch"], 3, size["hw"], size["hw"], generator=g, device=g.device)]


def audio_and_tokens(size, g):
    """Whisper: log-mel features, twice as many frames as its encoder's positions, and decoder tokens."""
    features = torch.randn(size["batch"], size["mels"], size["frames"], generator=g, device=g.device)
    return [features, torch.randint(size["vocab"], (size["batch"], size["seq"]), generator=g, device=g.device)]


def text_sizes(small, full, batch=8, seq=512, vocab=None):
    """Presets of a text model: small (tiny and quick) overrides its config, full keeps its defaults."""
    small_size = dict(batch=2, seq=16, vocab=small.pop("_vocab", 256), config=small)
    return {"tiny": small_size, "quick": small_size,
            "gpu": dict(batch=batch, seq=seq, vocab=vocab or full.get("vocab_size", 30522), config=full)}


def image_sizes(small, full=None, hw=224, small_hw=32):
    small_size = dict(batch=2, hw=small_hw, config=small)
    return {"tiny": small_size, "quick": small_size, "gpu": dict(batch=32, hw=hw, config=full or {})}


# special token ids inside a 256-word vocabulary (the defaults name ids of the full one)
SMALL_TOKEN_IDS = dict(bos_token_id=1, eos_token_id=2, pad_token_id=0, decoder_start_token_id=1)
SMALL_BERT = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, vocab_size=256,
                  max_position_embeddings=64)
SMALL_DECODER = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                     intermediate_size=128, vocab_size=256, max_position_embeddings=64)


def transformer_models():
    models = [
        Workload("gpt2", hf("GPT2Config", "GPT2LMHeadModel"), tokens("input_ids"),
                 text_sizes(dict(n_embd=64, n_layer=2, n_head=4, vocab_size=256, n_positions=64, **SMALL_TOKEN_IDS),
                            dict(vocab_size=50257), seq=512, vocab=50257)),
        Workload("llama", hf("LlamaConfig", "LlamaForCausalLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_DECODER), dict(hidden_size=2048, intermediate_size=5504, num_hidden_layers=4,
                                                      num_attention_heads=16, num_key_value_heads=4,
                                                      vocab_size=32000), vocab=32000)),
        Workload("mistral", hf("MistralConfig", "MistralForCausalLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_DECODER), dict(num_hidden_layers=2, vocab_size=32000), vocab=32000)),
        Workload("qwen2", hf("Qwen2Config", "Qwen2ForCausalLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_DECODER), dict(num_hidden_layers=2, hidden_size=2048, intermediate_size=5504,
                                                      num_attention_heads=16, num_key_value_heads=4,
                                                      vocab_size=32000), vocab=32000)),
        Workload("bert", hf("BertConfig", "BertForMaskedLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_BERT), dict(vocab_size=30522))),
        Workload("roberta", hf("RobertaConfig", "RobertaForMaskedLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_BERT, max_position_embeddings=66), dict(vocab_size=50265,
                                                                               max_position_embeddings=514),
                            vocab=50265)),
        Workload("distilbert", hf("DistilBertConfig", "DistilBertForMaskedLM"), tokens("input_ids"),
                 text_sizes(dict(dim=64, n_layers=2, n_heads=4, hidden_dim=128, vocab_size=256,
                                 max_position_embeddings=64), dict(vocab_size=30522))),
        Workload("albert", hf("AlbertConfig", "AlbertForMaskedLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_BERT, embedding_size=32), dict(vocab_size=30000), vocab=30000)),
        Workload("deberta_v2", hf("DebertaV2Config", "DebertaV2ForMaskedLM"), tokens("input_ids"),
                 text_sizes(dict(SMALL_BERT), dict(vocab_size=128100), vocab=128100)),
        Workload("t5", hf("T5Config", "T5ForConditionalGeneration", SEQ2SEQ), tokens("input_ids", "decoder_input_ids"),
                 text_sizes(dict(d_model=64, d_ff=128, num_layers=2, num_heads=4, d_kv=16, vocab_size=256),
                            dict(vocab_size=32128), vocab=32128)),
        Workload("bart", hf("BartConfig", "BartForConditionalGeneration", SEQ2SEQ), tokens("input_ids", "decoder_input_ids"),
                 text_sizes(dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                                 decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, vocab_size=256,
                                 max_position_embeddings=64), dict(vocab_size=50265), vocab=50265)),
        Workload("whisper", hf("WhisperConfig", "WhisperForConditionalGeneration",
                                     ("input_features", "decoder_input_ids")), audio_and_tokens,
                 {**{k: dict(batch=2, seq=16, vocab=256, mels=16, frames=64,
                             config=dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                                         decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128,
                                         vocab_size=256, num_mel_bins=16, max_source_positions=32,
                                         max_target_positions=64, **SMALL_TOKEN_IDS)) for k in ("tiny", "quick")},
                  "gpu": dict(batch=8, seq=128, vocab=51865, mels=80, frames=3000, config={})}),
        Workload("vit", hf("ViTConfig", "ViTForImageClassification", IMAGES), images,
                 image_sizes(dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                                  image_size=32, patch_size=8))),
        Workload("deit", hf("DeiTConfig", "DeiTForImageClassification", IMAGES), images,
                 image_sizes(dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                                  image_size=32, patch_size=8),
                             dict(hidden_size=192, num_attention_heads=3, intermediate_size=768))),
        Workload("swin", hf("SwinConfig", "SwinForImageClassification", IMAGES), images,
                 image_sizes(dict(image_size=32, patch_size=2, embed_dim=16, depths=[1, 1], num_heads=[2, 4],
                                  window_size=4))),
        Workload("convnext", hf("ConvNextConfig", "ConvNextForImageClassification", IMAGES), images,
                 image_sizes(dict(hidden_sizes=[16, 32], depths=[1, 1], num_stages=2),
                             dict(hidden_sizes=[40, 80, 160, 320], depths=[2, 2, 6, 2]))),
        Workload("resnet", hf("ResNetConfig", "ResNetForImageClassification", IMAGES), images,
                 image_sizes(dict(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], layer_type="basic"),
                             dict(hidden_sizes=[64, 128, 256, 512], depths=[2, 2, 2, 2], layer_type="basic"))),
        Workload("regnet", hf("RegNetConfig", "RegNetForImageClassification", IMAGES), images,
                 image_sizes(dict(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], groups_width=8))),
        Workload("mobilenet_v2", hf("MobileNetV2Config", "MobileNetV2ForImageClassification", IMAGES), images,
                 # 64 pixels: at 32 its last blocks normalize 2 values per channel, and the gradients of so
                 # ill-conditioned a batch norm differ between any two roundings (eager's own stem gradient is
                 # 0.06 RMSE from fp64's)
                 image_sizes(dict(image_size=64, depth_multiplier=0.25), small_hw=64)),
        Workload("efficientnet", hf("EfficientNetConfig", "EfficientNetForImageClassification", IMAGES), images,
                 image_sizes(dict(image_size=32, width_coefficient=0.25, depth_coefficient=0.25, hidden_dim=320),
                             dict(width_coefficient=1.0, depth_coefficient=1.0, hidden_dim=1280))),   # B0
    ]
    return models


TIMM_MODELS = {"timm_vit": "vit_base_patch16_224", "timm_deit": "deit_tiny_patch16_224",
               "timm_convnext": "convnext_atto", "timm_efficientnet": "efficientnet_b0",
               "timm_mobilenetv3": "mobilenetv3_large_100", "timm_regnet": "regnetx_002", "timm_resnet": "resnet18"}


def timm_models():
    """timm's own architectures (fused-qkv attention among them), where timm imports: it needs torchvision,
    whose PyPI wheels do not load with the CPU-only torch, so on such machines these are skipped."""
    try:
        importlib.import_module("timm")
    except Exception as e:   # ImportError, or torchvision's own failure to load its CUDA libraries
        log.info("kiln: timm does not import (%s: %s); its models are left out of the suite", type(e).__name__, e)
        return []
    sizes = {k: dict(batch=2, hw=64) for k in ("tiny", "quick")} | {"gpu": dict(batch=32, hw=224)}
    return [Workload(name, timm_model(arch), images, sizes) for name, arch in TIMM_MODELS.items()]


def real_models():
    """The suite's workloads; empty (with one line on the kiln logger) where transformers is missing."""
    try:
        importlib.import_module("transformers")
    except ImportError:
        log.warning("kiln: transformers is not installed (pip install -e '.[models]'); the model suite is empty")
        return []
    return transformer_models() + timm_models()

