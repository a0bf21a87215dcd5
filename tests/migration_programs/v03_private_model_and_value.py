"""nnsight 0.3: the wrapped torch model through `model._model`, saved values read with `.value`."""
weight = model._model.lm_head.weight.detach().clone()

with model.trace("hello world the cat", scan=False, validate=False):
    hidden = model.transformer.ln_f.output.save()
    logits = model.lm_head.output.save()

RESULT = {"weight": weight, "logits": logits.value, "projected": hidden.value @ weight.T}
