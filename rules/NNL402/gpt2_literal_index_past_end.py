"""`h[2]` on a 2-layer GPT-2: nnsight raises AttributeError naming attribute '2' at the end of the
trace.
"""
# runtime-raises: has attribute '2'
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    hidden = model.transformer.h[2].output.save()  # expect: NNL402
