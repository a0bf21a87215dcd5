"""A loop retains on every pass but the last through `retain_graph=i < n - 1`, which no linter can
decide.

The last pass frees the graph after everything else has run: clean.
"""
n = 3

with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    for i in range(n):
        logits[..., i].sum().backward(retain_graph=i < n - 1)
