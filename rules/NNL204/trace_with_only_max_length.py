"""`model.trace(max_length=5)` without invokes: `max_length=` is a generation setting, not an input,
so this is a trace without input.
"""
# runtime-raises: Cannot access `model.lm_head.output` outside of interleaving
with model.trace(max_length=5):  # expect: NNL204
    logits = model.lm_head.output.save()
