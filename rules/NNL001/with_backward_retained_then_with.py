"""Two invokes read gradients inside `with loss.backward(...):` blocks; the first retains the graph.

The run is clean and both gradients are captured.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        first_hidden = model.transformer.h[1].output
        loss = model.lm_head.output.sum()
        with loss.backward(retain_graph=True):
            first_grad = first_hidden.grad.save()
    with tracer.invoke("the cat sat"):
        second_hidden = model.transformer.h[1].output
        loss = model.lm_head.output.sum()
        with loss.backward():
            second_grad = second_hidden.grad.save()
assert first_grad.shape[-1] == second_grad.shape[-1] == 32
