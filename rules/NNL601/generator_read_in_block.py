"""A generator of prompts is read inside the remote block: generators cannot be pickled."""
# runtime-raises: cannot pickle 'generator' object
prompts = (p for p in ["the cat sat", "a dog ran"])
with model.trace("the cat sat", remote="local"):
    logits = model.lm_head.output.save()
    rest = prompts  # expect: NNL601
