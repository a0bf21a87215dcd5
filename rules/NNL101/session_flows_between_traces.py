"""Activation patching in a session: the clean run's unsaved value feeds the corrupted run.

Inside `model.session()` unsaved values flow from one trace to the next; only the result is saved.
"""
with model.session():
    with model.trace("the cat sat"):
        clean = model.transformer.h[1].output[:, -1, :]
    with model.trace("a dog ran"):
        model.transformer.h[1].output[:, -1, :] = clean
        patched_logits = model.lm_head.output.save()

print(patched_logits.argmax(-1))
