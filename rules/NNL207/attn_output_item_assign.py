"""Zeroing GPT-2's attention output by item assignment: with transformers 5 `attn.output` is the
tuple `(attn_output, attn_weights)`, and a tuple does not take item assignment.
"""
# runtime-raises: 'tuple' object does not support item assignment
with model.trace("the cat sat"):
    model.transformer.h[0].attn.output[0] = 0  # expect: NNL207
