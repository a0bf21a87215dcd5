"""The second invoke passes the first invoke's value to a helper before reading any module.

The call's arguments are evaluated first, so `donor` is read before the invoke waits on a module.
"""
# runtime-raises: name 'donor' is not defined


def patch_last(layer, value):
    layer.output[:, -1, :] = value


with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        donor = model.transformer.h[0].output[:, -1, :].clone()
    with tracer.invoke("a dog ran"):
        patch_last(model.transformer.h[0], donor)  # expect: NNL103
        out = model.lm_head.output.save()
