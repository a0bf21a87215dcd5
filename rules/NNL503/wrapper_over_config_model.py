"""A language model wrapper over a GPT-2 built from a config, without `tokenizer=`: no checkpoint
to take a tokenizer from, so the construction fails."""
# runtime-raises: Impossible to guess which tokenizer to use
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

net = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2))
model = LanguageModel(net)  # expect: NNL503
