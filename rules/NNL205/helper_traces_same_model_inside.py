"""A helper that runs its own "clean" trace of the model it is given is called inside a trace of
that same model: the helper's `lm.trace(...)` opens while the outer trace runs.
"""
# runtime-raises: cyclic parent chain
def clean_logits(lm, prompt):
    with lm.trace(prompt):  # expect: NNL205
        logits = lm.lm_head.output.save()
    return logits


with model.trace("the cat sat"):
    patched = model.lm_head.output.save()
    clean = clean_logits(model, "a dog ran")
