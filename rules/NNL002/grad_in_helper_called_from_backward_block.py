"""A small helper reads `.grad`; it is only called from inside `with loss.backward():`.

The read runs inside the backward block, so nnsight serves the real gradient.
"""


def gradient_of(activation):
    return activation.grad.save()


with model.trace("the cat ran"):
    mlp_out = model.transformer.h[0].mlp.output
    with model.lm_head.output.sum().backward():
        mlp_grad = gradient_of(mlp_out)

assert mlp_grad is not None
