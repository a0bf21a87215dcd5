"""A module's `.inputs` (args and kwargs) read inside the backward block.

Also a forward value: nnsight reports it as the module's input, already run past.
"""
# runtime-raises: 'model.transformer.h.0.input.i0' was requested but the model already ran past it
with model.trace("the cat ran"):
    with model.lm_head.output.sum().backward():
        args, kwargs = model.transformer.h[0].inputs  # expect: NNL004
