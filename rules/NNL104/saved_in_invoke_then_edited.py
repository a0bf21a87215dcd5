"""An invoke saves its block output, then mean-ablates the same output in place.

The saved value is the ablated tensor, so the "clean" activation is not clean.
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[1].output.save()  # expect: NNL104
        model.transformer.h[1].output[:] = model.transformer.h[1].output.mean(dim=1, keepdim=True)

assert (clean[:, 0, :] - clean[:, -1, :]).abs().max().item() < 1e-6
