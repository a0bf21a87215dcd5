"""A trace given the empty string: the tokenizer makes no token, and the model gets an empty tensor."""
# runtime-raises: cannot reshape tensor of 0 elements
with model.trace(""):  # expect: NNL502
    logits = model.lm_head.output.save()
