"""Keywords passed on with `**options` may hold the tokenizer: not reported."""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

options = {"tokenizer": tokenizer()}
net = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2))
model = LanguageModel(net, **options)
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

assert logits.shape[:2] == (1, 3)
