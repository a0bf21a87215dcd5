"""The backward sits in the remote trace, the loss comes from a helper: still no value asks for a
graph, so with NDIF's frozen parameters the backward fails (frozen here as NDIF serves them)."""
# runtime-raises: does not require grad
model._module.requires_grad_(False)  # as NDIF serves the model


def loss_of(logits):
    return logits[:, -1].logsumexp(-1).sum()


try:
    with model.trace("a dog ran", remote="local"):
        hidden = model.transformer.h[1].output
        with loss_of(model.lm_head.output).backward():  # expect: NNL602
            grad = hidden.grad.save()
finally:
    model._module.requires_grad_(True)
