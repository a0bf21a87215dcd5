"""A list comprehension calls backward once per position: a loop in disguise.

The first iteration frees the graph the second one needs.
"""
with model.trace("the cat sat"):
    logits = model.lm_head.output
    [logits[0, i].sum().backward() for i in range(2)]  # expect: NNL001
