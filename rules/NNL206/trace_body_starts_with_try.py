"""The trace's first statement is `try:` (guarding the read): nnsight can not get out of a `try`
at the body's first line, and refuses it.
"""
# runtime-raises: A traced `with` block cannot start with `try:`
with model.trace("the cat sat"):  # expect: NNL206
    try:
        logits = model.lm_head.output.save()
    except IndexError:
        logits = None
