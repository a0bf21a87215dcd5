"""`model.generate("")`: generation starts from no token and fails indexing the empty prompt."""
# runtime-raises: index is out of bounds for dimension with size 0
with model.generate("", max_new_tokens=2):  # expect: NNL502
    logits = model.lm_head.output.save()
