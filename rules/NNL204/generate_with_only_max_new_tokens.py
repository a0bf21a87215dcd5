"""`model.generate(max_new_tokens=3)`: `max_new_tokens=` is a setting, not an input, and there is no
invoke.
"""
# runtime-raises: Cannot access `model.lm_head.output` outside of interleaving
with model.generate(max_new_tokens=3):  # expect: NNL204
    first_logits = model.lm_head.output.save()
