"""Code written for several nnsight versions reads `.value` only where the saved object has it
(`x.value if hasattr(x, "value") else x`, or under `if hasattr(x, "value"):`).

On nnsight 0.4+ the saved name is the tensor itself, which has no `.value`, so the guard takes the
other arm: the read never runs and nothing fails.
"""
with model.trace("hello world"):
    hidden = model.transformer.h[-1].output.save()
    logits = model.lm_head.output.save()

hidden = hidden.value if hasattr(hidden, "value") else hidden
if hasattr(logits, "value"):
    logits = logits.value
assert hidden.shape[-1] == logits.shape[-1] - logits.shape[-1] + hidden.shape[-1]
print(hidden.shape, logits.shape)
