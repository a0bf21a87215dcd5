"""Code written for several nnsight versions reads `.value` only where the saved object has it
(`x.value if hasattr(x, "value") else x`, under `if hasattr(x, "value"):`, or in a `try:` that
catches the AttributeError).

On nnsight 0.4+ the saved name is the tensor itself, which has no `.value`, so the guard takes the
other arm: the read never runs and nothing fails.
"""
with model.trace("hello world"):
    first = model.transformer.h[0].output.save()
    hidden = model.transformer.h[-1].output.save()
    logits = model.lm_head.output.save()

hidden = hidden.value if hasattr(hidden, "value") else hidden
if hasattr(logits, "value"):
    logits = logits.value
try:
    first = first.value
except AttributeError:
    pass
assert hidden.shape == first.shape and logits.shape[:2] == hidden.shape[:2]
print(hidden.shape, logits.shape, first.shape)
