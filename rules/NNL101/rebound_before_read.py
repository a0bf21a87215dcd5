"""`logits` is an unsaved temporary in the trace; after the trace it is rebound before it is read.

The read after the block sees the new binding, not the trace's value.
"""
with model.trace("hello world"):
    logits = model.lm_head.output
    top = logits[:, -1, :].argmax(-1).save()

logits = model.lm_head.weight @ model.transformer.wte.weight[top].T
print(logits.shape)
