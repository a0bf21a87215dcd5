"""The first statement of the backward body rebinds `out`, the name the `with` line takes the loss from.

The read of `lm_head` inside the block fails (the forward already ran past it). Moving the statement
above the `with` would make the backward start from `lm_head`'s output instead of block 0's, so
the fix is unsafe: capture the output under another name before the block.
"""
# runtime-raises: 'model.lm_head.output.i0' was requested but the model already ran past it
with model.trace("the cat sat on the mat"):
    out = model.transformer.h[0].output
    with out.sum().backward():
        out = model.lm_head.output  # expect: NNL004
        embedding_grad = model.transformer.wte.weight.grad.save()
