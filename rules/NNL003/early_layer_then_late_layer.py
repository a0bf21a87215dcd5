"""Inside one backward block the first layer's gradient is read before the second layer's.

Gradients arrive in reverse forward order: waiting for h[0]'s gradient lets h[1]'s go by, and the
later read fails with an OutOfOrderError that names only a tensor id.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("the cat sat on the mat"):
    first = model.transformer.h[0].output
    second = model.transformer.h[1].output
    with model.lm_head.output.sum().backward():
        first_grad = first.grad.save()
        second_grad = second.grad.save()  # expect: NNL003
