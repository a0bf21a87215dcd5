"""The same through an alias of the attention module, replacing its first element with a scaled
copy.
"""
# runtime-raises: 'tuple' object does not support item assignment
attn = model.transformer.h[1].attn

with model.trace("a dog ran"):
    attn.output[0] = attn.output[0] * 0.5  # expect: NNL207
