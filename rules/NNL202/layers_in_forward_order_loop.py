"""A per-layer loop over `model.transformer.h` in forward order, then the logits: a naive reading of
`h[i]` inside a loop must not be taken for an out-of-order access.
"""
with model.trace("the cat sat"):
    per_layer = list().save()
    for i in range(len(model.transformer.h)):
        per_layer.append(model.transformer.h[i].output[0, -1])
    logits = model.lm_head.output.save()

assert len(per_layer) == 2
assert logits.shape == (1, 3, 12)
