"""A session is traced as well: a one-line body is refused there too (the trace after it in the
same cell is never reached).
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.session(): ready = True  # expect: NNL206

with model.trace("the cat sat"):
    logits = model.lm_head.output.save()
