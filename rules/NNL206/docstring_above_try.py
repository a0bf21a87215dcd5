"""A string expression (a note) is the trace body's first statement, the `try:` comes second.
"""
with model.trace("hello world"):
    "read the logits, tolerate a short prompt"
    try:
        logits = model.lm_head.output[0, -1].save()
    except IndexError:
        pass

assert logits.shape == (12,)
