"""`model.get(...)` with a path Gemma 2 does not have (`mlp.c_proj` is GPT-2's): AttributeError.
"""
# runtime-raises: has attribute 'c_proj'
from nnsight import LanguageModel
from transformers import Gemma2Config, Gemma2ForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    Gemma2ForCausalLM(Gemma2Config(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                   num_key_value_heads=2, head_dim=16, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    projected = model.get("model.layers.0.mlp.c_proj.output").save()  # expect: NNL401
