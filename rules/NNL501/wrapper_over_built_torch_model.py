"""A wrapper over a torch model built in the program has its weights from the start."""
import torch
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

net = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2))
model = LanguageModel(net, tokenizer=tokenizer())
ids = torch.tensor([[2, 3, 4]]).to(model.device)
scale = model.lm_head.weight.abs().max().item()
assert scale > 0
