"""`model.config.n_layer` is the count, one past the last index: AttributeError.
"""
# runtime-raises: has attribute '2'
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    last = model.transformer.h[model.config.n_layer].output.save()  # expect: NNL402
