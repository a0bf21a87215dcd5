"""A helper that opens its own trace is called after the first trace has closed, not inside it.
"""
def clean_logits(prompt):
    with model.trace(prompt):
        logits = model.lm_head.output.save()
    return logits


with model.trace("the cat sat"):
    patched = model.lm_head.output.save()
clean = clean_logits("the cat sat")

assert patched.shape == clean.shape
