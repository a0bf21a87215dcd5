"""Iterating the envoy list itself (`for block in model.transformer.h`) gives envoys."""
outs = []
with model.trace("the cat sat"):
    for block in model.transformer.h:
        outs.append(block.output.save())

assert len(outs) == 2
