"""A module's `.input` read inside the backward block.

Inputs are forward values too: the read fails with an OutOfOrderError for the module's input.
"""
# runtime-raises: 'model.transformer.h.1.input.i0' was requested but the model already ran past it
with model.trace("hello world"):
    with model.lm_head.output.sum().backward():
        block_in = model.transformer.h[1].input  # expect: NNL004
        block_in_grad = block_in.grad.save()
