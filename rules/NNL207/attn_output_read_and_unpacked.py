"""Reading the attention output: by index, by unpacking, and assigning into the tensor it holds
(`output[0][0] = ...`) — none of these assigns into the tuple.
"""
import torch

with model.trace("the cat sat"):
    attn_out, attn_weights = model.transformer.h[0].attn.output
    first = model.transformer.h[0].attn.output[0].save()
    model.transformer.h[0].attn.output[0][0] = 0
    after = model.transformer.h[0].attn.output[0].save()

assert first is after
assert torch.count_nonzero(after[0]) == 0
