"""A helper builds the wrapper over a config-built model, without a tokenizer: it fails when called."""
# runtime-raises: Impossible to guess which tokenizer to use
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel


def build(n_layer=2):
    net = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=n_layer, n_head=2))
    return LanguageModel(net)  # expect: NNL503


model = build()
