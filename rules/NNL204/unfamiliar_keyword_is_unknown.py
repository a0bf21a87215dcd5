"""`model.trace(max_length=5)` without invokes fails (that keyword is no input), but the rule cannot
tell an unfamiliar keyword from a model's own input keyword, so it stays silent. The case pins
that scope: unfamiliar keywords are unknown, never "no input".
"""
# runtime-raises: Cannot access `model.lm_head.output` outside of interleaving
with model.trace(max_length=5):
    logits = model.lm_head.output.save()
