"""`model.trace(**encoding)` with a tokenizer encoding: `**` is unknown to the rule, never "no
input" (and here it is the input).
"""
encoding = model.tokenizer("the cat sat", return_tensors="pt")
with model.trace(**encoding):
    logits = model.lm_head.output.save()

assert logits.shape == (1, 3, 12)
