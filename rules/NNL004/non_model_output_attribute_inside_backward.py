"""Inside the backward block, `.output` and `.input` are read from a plain record object, not from
the model: no forward access.
"""
from types import SimpleNamespace

record = SimpleNamespace(input="the cat sat", output=[])
with model.trace(record.input):
    hidden = model.transformer.h[0].output
    with model.lm_head.output.sum().backward():
        record.output.append(hidden.grad.save())
        prompt = record.input

assert len(record.output) == 1
