"""A batch with one empty prompt beside a real one is padded and runs."""
with model.trace(["hello world", ""]):
    logits = model.lm_head.output.save()

assert logits.shape[0] == 2
