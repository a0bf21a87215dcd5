"""A loop over the blocks scales each attention output by item assignment.
"""
# runtime-raises: 'tuple' object does not support item assignment
with model.trace("hello world"):
    for block in model.transformer.h:
        block.attn.output[0] = block.attn.output[0] * 2  # expect: NNL207
