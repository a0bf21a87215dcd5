"""A wrapper class of the project's own (here a LanguageModel subclass that renames modules, as
nnterp's StandardizedTransformer does) is not looked at: its paths are its own.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer


class Standardized(LanguageModel):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, rename={"transformer.h": "layers"}, **kwargs)


model = Standardized(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    hidden = model.layers[0].output.save()

assert hidden.shape == (1, 3, 32)
