"""Unpacking an OPT block's output as `(hidden, ...)` splits the batch.
"""
from nnsight import LanguageModel
from transformers import OPTConfig, OPTForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    OPTForCausalLM(OPTConfig(num_hidden_layers=2, hidden_size=32, ffn_dim=64, num_attention_heads=2, vocab_size=12,
                             word_embed_proj_dim=32, max_position_embeddings=32)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    hidden, *rest = model.model.decoder.layers[1].output  # expect: NNL403
    hidden = hidden.save()

assert hidden.shape == (3, 32)
