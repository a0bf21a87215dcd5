"""A helper reads the wrapped torch model the pre-0.8 way, `model._model`, and is called after
the trace, never inside one: its API use is a finding all the same.

nnsight 0.8 names it `model._module`; `model._model` raises AttributeError.
"""
# runtime-raises: _model
def lm_head_weight():
    return model._model.lm_head.weight  # expect: NNL302


with model.trace("hello world"):
    logits = model.lm_head.output.save()

print(lm_head_weight().shape)
