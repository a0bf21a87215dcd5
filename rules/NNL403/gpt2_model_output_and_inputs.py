"""`model.output[0]` / `.logits` (a ModelOutput) and `.inputs[0][0]` (`(args, kwargs)`) are right.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    entering = model.transformer.h[0].inputs[0][0].save()
    logits = model.output[0].save()
    same = model.output.logits.save()

assert entering.shape == (2, 3, 32) and logits.shape == (2, 3, 12) and same.shape == logits.shape
