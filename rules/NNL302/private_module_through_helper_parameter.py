"""A helper given the model reads the wrapped torch model as nnsight 0.8 names it, `m._module`.

Runs clean on 0.8; the helper's own `timer.stop()` is no nnsight API and is not reported.
"""
import time


class Timer:
    def __init__(self):
        self.started = time.perf_counter()

    def stop(self):
        return time.perf_counter() - self.started


def lm_head_weight(m, timer):
    timer.stop()
    return m._module.lm_head.weight


with model.trace("hello world"):
    logits = model.lm_head.output.save()

assert lm_head_weight(model, Timer()).shape[-1] == 32
