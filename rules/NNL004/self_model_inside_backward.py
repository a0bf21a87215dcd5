"""An attribution class keeps the model on `self.model`; its method reads the embedding output
inside the backward block.
"""
# runtime-raises: 'model.transformer.wte.output.i0' was requested but the model already ran past it


class Saliency:
    def __init__(self, lm):
        self.model = lm

    def run(self, prompt):
        with self.model.trace(prompt):
            target = self.model.lm_head.output[0, -1].max()
            with target.backward():
                embedded = self.model.transformer.wte.output  # expect: NNL004
                embedded_grad = embedded.grad.save()
        return embedded_grad


Saliency(model).run("the dog ran")
