"""A result object with a `value` field wraps a saved tensor; the name is rebound to it after the trace.

The `.value` read is on the wrapper, whose class defines it; the saved tensor is never asked for one.
"""
from dataclasses import dataclass


@dataclass
class Measurement:
    name: str
    value: float


with model.trace("the cat sat"):
    norm = model.transformer.ln_f.output.norm().save()

norm = Measurement("final norm", float(norm))
print(norm.value)
