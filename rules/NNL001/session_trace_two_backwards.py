"""A trace inside a `model.session()` runs two backwards over the same logits.

The session changes nothing about the trace: the first backward frees its graph and the second
fails.
"""
with model.session():
    with model.trace("the cat sat on the mat"):
        logits = model.lm_head.output
        logits.sum().backward()  # expect: NNL001
        logits.mean().backward()
