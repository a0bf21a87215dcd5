"""A backward in a `try` body and a fallback backward in its `except` handler.

The handler only runs if the body failed, so the two never both free the graph: clean.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    try:
        logits.sum().backward()
    except RuntimeError:
        logits.mean().backward()
