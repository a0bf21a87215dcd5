"""The trace's body starts with an ordinary statement and only then a `try:` — nnsight's own
advice, and it runs.
"""
with model.trace("a dog ran"):
    logits = None
    try:
        logits = model.lm_head.output.save()
    except IndexError:
        pass

assert logits.shape == (1, 3, 12)
