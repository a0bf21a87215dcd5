"""`model.named_modules()` yields envoys: their outputs can be read."""
outs = []
with model.trace("the cat sat"):
    for name, module in model.named_modules():
        if name.endswith(".mlp"):
            outs.append(module.output.save())

assert len(outs) == 2
