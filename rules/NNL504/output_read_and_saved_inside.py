"""The output is read inside the trace and saved: the saved tensor is used after it."""
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

assert logits.shape[-1] == 12
