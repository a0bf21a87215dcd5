"""A method traces `self.model` and runs two backwards over the same logits.

The first backward frees the graph and the second fails.
"""


class Attributor:
    def __init__(self, lm):
        self.model = lm

    def run(self, prompt):
        with self.model.trace(prompt):
            logits = self.model.lm_head.output
            logits.sum().backward()  # expect: NNL001
            logits.mean().backward()


Attributor(model).run("the cat sat on the mat")
