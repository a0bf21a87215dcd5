"""The whole chain `model.transformer.h[1].output.grad` written inside the backward block.

The `.output` step is a forward access, and the forward has already run past it.
"""
# runtime-raises: 'model.transformer.h.1.output.i0' was requested but the model already ran past it
with model.trace("a dog ran"):
    with model.lm_head.output[0, -1].max().backward():
        block_grad = model.transformer.h[1].output.grad.save()  # expect: NNL004
