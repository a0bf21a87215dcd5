"""`model.modules()` yields envoys, filtered by their path."""
outs = []
with model.trace("the cat sat"):
    for m in model.modules():
        if m.path.endswith(".attn"):
            outs.append(m.output[0].save())

assert len(outs) == 2
