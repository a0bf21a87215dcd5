"""A `with loss.backward():` block inside `model.generate(...)`.

HuggingFace's generate runs under `torch.no_grad()`: the loss does not require grad, and nnsight's
backward session refuses to start.
"""
# runtime-raises: This tensor does not require grad, so a backward session cannot produce gradients
with model.generate("the cat sat", max_new_tokens=2):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():  # expect: NNL005
        hidden_grad = hidden.grad.save()
