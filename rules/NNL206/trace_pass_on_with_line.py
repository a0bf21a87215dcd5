"""`with model.trace(x): pass` on one line (a warm-up run): nnsight 0.8.1 accepts it.
"""
with model.trace("the cat sat"): pass

with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

assert logits.shape == (1, 3, 12)
