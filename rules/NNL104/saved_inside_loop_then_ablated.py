"""Each block's output is saved before the block is ablated, layer by layer.

Every saved output is the storage the next line zeroes, so all of them read zeros.
"""
saved = []
with model.trace("a dog ran"):
    for block in model.transformer.h:
        saved.append(block.output.save())  # expect: NNL104
        block.output[:] = 0

assert all(s.abs().sum().item() == 0.0 for s in saved)
