"""A walrus in the `with` line binds `loss`, which the first statement of the backward body rebinds.

The `.output` read inside the block fails. Moved above the `with`, the statement would run before
the walrus, which would then rebind `loss` for the rest of the body (`loss.grad` would be the
loss's own gradient, not block 1's): the fix is unsafe.
"""
# runtime-raises: 'model.transformer.h.1.output.i0' was requested but the model already ran past it
with model.trace("the cat sat on the mat"):
    with (loss := model.lm_head.output.sum()).backward():
        loss = model.transformer.h[1].output  # expect: NNL004
        hidden_grad = loss.grad.save()
