"""A backward over a detached probe's own graph, then one backward over the model's graph.

`detach()` cuts the probe off the model's graph, so the two backwards share nothing: clean.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    probe = logits.detach().requires_grad_()
    (probe * probe).sum().backward()
    logits.sum().backward()
