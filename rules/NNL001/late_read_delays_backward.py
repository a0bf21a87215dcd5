"""An invoke builds an h[0] loss but reads lm_head before calling backward, so its backward runs
after lm_head.

The second invoke's h[1] backward therefore runs first; it retains, the h[0] backward runs last:
clean.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.transformer.h[0].output.sum()
        logits = model.lm_head.output.save()
        loss.backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[1].output.sum().backward(retain_graph=True)
