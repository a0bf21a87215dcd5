"""A wrapper class keeps the model as `self.model`; its `_intervene` method returns a saved activation.

The value bound from the method call is the saved object, so it is readable after the trace.
"""


class Probe:
    def __init__(self, lm, layer):
        self.model = lm
        self.layer = layer

    def _intervene(self):
        hidden = self.model.transformer.h[self.layer].output
        return hidden.mean(dim=1).save()

    def run(self, prompt):
        with self.model.trace(prompt):
            pooled = self._intervene()
        return pooled


print(Probe(model, 1).run("a dog ran").shape)
