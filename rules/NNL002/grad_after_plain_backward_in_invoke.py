"""Inside one invoke of a batched trace: a plain backward, then `.grad` of the invoke's activation.

The invoke's activation is a slice of the batch, not a leaf: plain torch leaves its `.grad` None.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.save()
    with tracer.invoke("the dog ran"):
        mlp_out = model.transformer.h[0].mlp.output
        model.lm_head.output.sum().backward()
        mlp_grad = mlp_out.grad.save()  # expect: NNL002

assert mlp_grad is None
