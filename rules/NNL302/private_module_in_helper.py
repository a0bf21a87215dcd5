"""A helper reads the wrapped torch model as nnsight 0.8 names it, `model._module`, after the trace.

Runs clean on 0.8: the lm_head's weight of the tiny model.
"""
def lm_head_weight():
    return model._module.lm_head.weight


with model.trace("hello world"):
    logits = model.lm_head.output.save()

assert lm_head_weight().shape[-1] == 32
