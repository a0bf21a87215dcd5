"""`with loss.backward(): g = ...` on one line inside a trace: the backward block is traced too.
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.trace("a dog ran"):
    hidden = model.transformer.h[0].output
    loss = model.lm_head.output.sum()
    with loss.backward(): grad = hidden.grad.save()  # expect: NNL206
