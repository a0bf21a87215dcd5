"""The saved attention output of OPT is a tuple after the trace too: slicing it like a tensor
raises TypeError.
"""
# runtime-raises: tuple indices must be integers or slices, not tuple
from nnsight import LanguageModel
from transformers import OPTConfig, OPTForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    OPTForCausalLM(OPTConfig(num_hidden_layers=2, hidden_size=32, ffn_dim=64, num_attention_heads=2, vocab_size=12,
                             word_embed_proj_dim=32, max_position_embeddings=32)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    attention = model.model.decoder.layers[0].self_attn.output.save()

last = attention[:, -1]  # expect: NNL404
