"""Each pass reads an MLP's output and then the same MLP's input, which came first."""
# runtime-raises: 'model.transformer.h.0.mlp.input.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    for layer in model.transformer.h:
        out = layer.mlp.output.save()
        inp = layer.mlp.input.save()  # expect: NNL202
