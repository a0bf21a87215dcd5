"""Two invokes read gradients with the `with loss.backward():` form, from different depths.

The second invoke's loss comes from h[1], so its backward runs when the forward reaches h[1],
before the first invoke's lm_head backward: it frees the graph the lm_head backward needs.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat on the mat"):
        hidden = model.transformer.h[0].output
        top = model.lm_head.output[0, -1].max()
        with top.backward():
            first_grad = hidden.grad.save()
    with tracer.invoke("a dog ran"):
        block = model.transformer.h[1].output
        with block.sum().backward():  # expect: NNL001
            second_grad = block.grad.save()
