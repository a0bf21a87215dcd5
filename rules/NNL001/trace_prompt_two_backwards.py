"""`model.trace(prompt)` without invokes: the body is one implicit invoke with two backwards.

The first backward frees the graph and the second fails.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    logits.sum().backward()  # expect: NNL001
    logits.mean().backward()
