"""The logits are saved, the probabilities computed from them inside the trace are not.

`probs` is a different tensor from the saved logits, so it is undefined after the block.
"""
# runtime-raises: name 'probs' is not defined
with model.trace("the cat sat on"):
    logits = model.lm_head.output.save()
    probs = logits[:, -1, :].softmax(-1)  # expect: NNL101

print(logits.shape, probs.argmax())
