"""`for i, layer in enumerate(...)`: a block's output, then the output of its first layer norm,
which ran inside the block before the block returned."""
# runtime-raises: 'model.transformer.h.0.ln_1.output.i0' was requested but the model already ran past it
outs = []
with model.trace("the cat sat"):
    for i, layer in enumerate(model.transformer.h):
        outs.append(layer.output.save())
        normed = layer.ln_1.output.save()  # expect: NNL202
