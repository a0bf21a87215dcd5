"""A trace given an empty list of prompts: there is no batch, so the body's module reads happen
outside any model run."""
# runtime-raises: outside of interleaving
with model.trace([]):  # expect: NNL502
    logits = model.lm_head.output.save()
