"""The token embedding's gradient, then the last block's, inside one backward block.

The embedding runs first in the forward, so its gradient arrives last: the block's read fails.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("hello world"):
    embedded = model.transformer.wte.output
    block = model.transformer.h[1].output
    loss = model.lm_head.output[0, -1].max()
    with loss.backward():
        embedded_grad = embedded.grad.save()
        block_grad = block.grad.save()  # expect: NNL003
