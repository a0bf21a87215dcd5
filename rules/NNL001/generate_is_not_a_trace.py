"""Two backwards inside `model.generate(...)`, which HuggingFace runs under `torch.no_grad()`.

There is no graph at all, so the FIRST backward fails with "does not require grad"; a generate block
is not a trace for NNL001.
"""
# runtime-raises: does not require grad
with model.generate("the cat sat", max_new_tokens=2):
    logits = model.lm_head.output
    logits.sum().backward()  # expect: NNL005
    logits.mean().backward()  # expect: NNL005
