"""GPT-2's `attn` returns `(attn_output, attn_weights)`: tensor indexing on the tuple raises
TypeError at the end of the trace.
"""
# runtime-raises: tuple indices must be integers or slices, not tuple
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    last = model.transformer.h[0].attn.output[:, -1, :].save()  # expect: NNL404
