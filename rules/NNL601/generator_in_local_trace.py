"""The same generator read in a trace that runs here (no `remote=`): nothing is pickled."""
prompts = (p for p in ["the cat sat", "a dog ran"])
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()
    first = next(prompts)
assert logits.shape[1] == 3
