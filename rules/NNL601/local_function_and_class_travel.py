"""A function and a class defined in this file, used in a remote block: nnsight 0.8 pickles them by
their source, so they travel (older clients refused them: not whitelisted)."""


class Scale:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k


def double(x):
    return x * 2


half = Scale(0.5)
with model.trace("the cat sat", remote="local"):
    h = double(half(model.transformer.h[0].output)).save()

assert h.shape[-1] == 32
