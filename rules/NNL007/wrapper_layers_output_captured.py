"""A renaming wrapper in the style of nnterp exposes `model.layers_output[i]` (a layer's output,
not a module). The output is captured before the backward block and its `.grad` read inside.
"""


class _LayerOutputs:
    def __init__(self, lm):
        self._lm = lm

    def __getitem__(self, index):
        return self._lm.transformer.h[index].output


class StandardizedLM:
    def __init__(self, lm):
        self._lm = lm
        self.layers_output = _LayerOutputs(lm)

    def trace(self, *args, **kwargs):
        return self._lm.trace(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._lm, name)


model = StandardizedLM(model)
with model.trace("the cat sat"):
    layer_out = model.layers_output[1]
    with model.lm_head.output.sum().backward():
        layer_grad = layer_out.grad.save()

assert layer_grad is not None
