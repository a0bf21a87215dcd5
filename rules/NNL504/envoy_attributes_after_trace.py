"""After the trace, a module's weight and the model's config are read: plain torch values, fine."""
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

w = model.lm_head.weight
assert w.shape[0] == model.config.vocab_size
