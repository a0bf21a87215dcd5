"""A wrapper's method saves activations; another method of it calls it inside its trace.

The save runs inside the trace opened by `run`.
"""
import nnsight


class Lens:
    def __init__(self, lm):
        self.model = lm

    def _capture(self):
        return nnsight.save(self.model.transformer.ln_f.output)

    def run(self, prompt):
        with self.model.trace(prompt):
            final = self._capture()
        return final


print(Lens(model).run("hello world").shape)
