"""An invoke builds an h[0] loss but reads lm_head before calling backward, so its backward runs
after lm_head.

The other invoke's h[1] backward runs first and frees the graph; the h[0] backward fails.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        loss = model.transformer.h[0].output.sum()
        logits = model.lm_head.output.save()
        loss.backward()
    with tracer.invoke("the cat sat"):
        model.transformer.h[1].output.sum().backward()  # expect: NNL001
