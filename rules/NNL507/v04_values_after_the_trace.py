"""On nnsight 0.4, the saved values after the trace are tensors: `len`, `if`, `.tolist()` all work.

Inside the trace `.tolist()` is a proxy too; saved, it is a list after the trace (checked on 0.4.11).
"""
# target-version: 0.4
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output[0].save()
    ids = model.lm_head.output[0].argmax(dim=-1).tolist().save()

n_tokens = len(hidden[0])
label = "big" if hidden.abs().max() > 100 else "small"
assert n_tokens == 3 and len(ids) == 3 and label == "small"
