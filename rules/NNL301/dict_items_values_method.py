"""Saved tensors in a dict read with `.values()` and a top-k result's `.values`.

`values()` and `.values` are dict and torch API, not the removed `.value`.
"""
saved = {}
with model.trace("the cat sat"):
    saved["logits"] = model.lm_head.output[:, -1, :].save()

best = saved["logits"].topk(3)
print(list(saved.values())[0].shape, best.values)
