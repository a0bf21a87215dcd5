"""A wrapper class keeps the model on `self.model` and reads `.grad` on a block module.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'


class Attribution:
    def __init__(self, lm):
        self.model = lm

    def run(self, prompt):
        with self.model.trace(prompt):
            with self.model.lm_head.output.sum().backward():
                grad = self.model.transformer.h[0].grad.save()  # expect: NNL007
        return grad


Attribution(model).run("the dog sat")
