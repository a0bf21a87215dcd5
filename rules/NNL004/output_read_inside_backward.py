"""A layer's output is first read inside `with loss.backward():` instead of before it.

The forward is over when the backward block runs: nnsight raises an OutOfOrderError for the
module's output (not the documented "backwards tracer" ValueError).
"""
# runtime-raises: 'model.transformer.h.1.output.i0' was requested but the model already ran past it
with model.trace("the cat sat on the mat"):
    loss = model.lm_head.output.sum()
    with loss.backward():
        hidden = model.transformer.h[1].output  # expect: NNL004
        hidden_grad = hidden.grad.save()
