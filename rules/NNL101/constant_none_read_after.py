"""A flag set to None inside the trace and tested after it: a NameError, like any unsaved name."""
# runtime-raises: name 'best' is not defined
with model.trace("the cat sat"):
    best = None  # expect: NNL101
    logits = model.lm_head.output.save()

if best is None:
    best = logits.argmax(-1)
