"""A helper reads the wrapped torch model the pre-0.8 way through its parameter, `m._model`, and is
handed the traced model after the trace (`lm_head_weight(model)`), never inside one.

nnsight 0.8 names it `m._module`; `m._model` raises AttributeError.
"""
# runtime-raises: _model
def lm_head_weight(m):
    return m._model.lm_head.weight  # expect: NNL302


with model.trace("hello world"):
    logits = model.lm_head.output.save()

print(lm_head_weight(model).shape)
