"""A block's output, then the output of the attention inside it: a submodule finishes before the
module that contains it.
"""
# runtime-raises: 'model.transformer.h.0.attn.output.i0' was requested but the model already ran past it
with model.trace("hello world"):
    block = model.transformer.h[0].output.save()
    attn = model.transformer.h[0].attn.output[0].save()  # expect: NNL202
