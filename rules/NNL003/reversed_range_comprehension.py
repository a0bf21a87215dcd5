"""Layer outputs stored in forward order; their gradients read with `reversed(range(n))`.

Backward order: the last layer first. Every read is served.
"""
import nnsight

n_layers = len(model.transformer.h)
with model.trace("a dog ran"):
    refs = [model.transformer.h[i].output for i in range(n_layers)]
    with model.lm_head.output[0, -1].max().backward():
        grads = nnsight.save([refs[i].grad for i in reversed(range(n_layers))])

assert len(grads) == n_layers and all(g is not None for g in grads)
