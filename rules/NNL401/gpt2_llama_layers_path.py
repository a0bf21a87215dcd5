"""Llama's `model.layers` on a GPT-2, which calls its blocks `transformer.h`: nnsight raises
AttributeError at the end of the trace.
"""
# runtime-raises: has attribute 'model'
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    hidden = model.model.layers[0].output.save()  # expect: NNL401
