"""A helper returns a layer's output; it is called before the backward block, and the block reads
the captured tensors' gradients in backward order.
"""
import nnsight


def residual(lm, layer):
    return lm.transformer.h[layer].output


with model.trace("the dog sat on the mat"):
    acts = [residual(model, i) for i in range(2)]
    with model.lm_head.output.sum().backward():
        grads = nnsight.save([acts[i].grad for i in (1, 0)])

assert len(grads) == 2
