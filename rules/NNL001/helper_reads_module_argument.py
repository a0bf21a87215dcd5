"""A helper builds its loss from the module it is given: `block_loss(model.transformer.h[1])`.

That backward runs when the forward reaches h[1], before the first invoke's lm_head backward, so
it frees the graph the lm_head backward still needs.
"""


def block_loss(layer):
    return layer.output.sum()


with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward()
    with tracer.invoke("the cat sat"):
        block_loss(model.transformer.h[1]).backward()  # expect: NNL001
