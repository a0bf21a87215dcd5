"""Old code reaches the wrapped torch model through `model._model`.

Since nnsight 0.8 it is `model._module`; the wrapper forwards the unknown name to the torch model,
which has no `_model` either (AttributeError).
"""
# runtime-raises: has attribute '_model'
with model.trace("hello world the cat"):
    logits = model.lm_head.output.save()

weight = model._model.lm_head.weight  # expect: NNL302
