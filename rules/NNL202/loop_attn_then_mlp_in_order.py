"""Each pass reads the attention output, then the MLP output, of the same block: forward order."""
attns, mlps = [], []
with model.trace("the cat sat"):
    for layer in model.transformer.h:
        attns.append(layer.attn.output[0].save())
        mlps.append(layer.mlp.output.save())

assert len(attns) == len(mlps) == 2
