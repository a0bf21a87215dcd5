"""Block 0's output, then block 1's input: the next block's input comes after, and is the same
hidden state.
"""
import torch

with model.trace("a dog ran"):
    produced = model.transformer.h[0].output.save()
    consumed = model.transformer.h[1].input.save()

assert torch.equal(produced, consumed)
