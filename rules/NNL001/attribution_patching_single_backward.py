"""Attribution patching as nnsight's tutorial writes it: a clean and a corrupted invoke, saves in a
loop over the layers, and ONE backward (in the corrupted invoke) reading every layer's gradient.

One backward frees the graph only after it is done: clean.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat on the mat"):
        clean = [layer.attn.output[0].save() for layer in model.transformer.h]
    with tracer.invoke("the dog sat on the mat"):
        corrupted = [layer.attn.output[0] for layer in model.transformer.h]
        metric = model.lm_head.output[0, -1].max()
        with metric.backward():
            # Gradients arrive in backward order: last layer first.
            grads = [output.grad.save() for output in reversed(corrupted)]
