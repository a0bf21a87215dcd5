"""Reading a decoder block's output and its module's own weight on a subscripted path: an Envoy's
`.output` and the torch module's parameters (forwarded by the Envoy) are both fine."""
with model.trace("hello world the cat"):
    out = model.transformer.h[0].mlp.output.save()
    weight = model.transformer.h[0].mlp.c_fc.weight.save()

assert out.shape[-1] == weight.shape[0] == 32
