"""Ablating a set of layers at every generation step: the helper sorts the indices so each pass of
the loop reads layers in forward order, and the next pass starts again from the first layer.
"""
def ablate(layers, chosen):
    for index in sorted(chosen):
        layers[index].mlp.output[:] = 0


with model.generate("hello world", max_new_tokens=3) as tracer:
    for step in tracer.iter[:3]:
        ablate(model.transformer.h, {1, 0})
    tokens = tracer.result.save()

assert tokens.shape == (1, 5)
