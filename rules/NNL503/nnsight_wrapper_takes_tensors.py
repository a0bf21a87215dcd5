"""`NNsight(net)` takes tensors, not text: no tokenizer is needed."""
import torch
from nnsight import NNsight
from transformers import GPT2Config, GPT2LMHeadModel

net = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2))
model = NNsight(net)
with model.trace(torch.tensor([[2, 3, 4]])):
    logits = model.lm_head.output.save()

assert logits.shape[:2] == (1, 3)
