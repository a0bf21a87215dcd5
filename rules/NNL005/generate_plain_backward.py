"""A plain `loss.backward()` inside `model.generate(...)`.

No graph was built under generate's `torch.no_grad()`: torch refuses the backward.
"""
# runtime-raises: element 0 of tensors does not require grad and does not have a grad_fn
with model.generate("a dog ran", max_new_tokens=2):
    logits = model.lm_head.output
    logits[0, -1].max().backward()  # expect: NNL005
