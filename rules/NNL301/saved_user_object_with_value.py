"""A user's own object (with a `.value` of its own) is passed to `nnsight.save` in the trace.

It leaves the trace as itself; `.value` is its attribute, not legacy nnsight API: nothing to report.
"""
import nnsight


class Meter:
    def __init__(self):
        self.value = 0


with model.trace("hello world"):
    meter = nnsight.save(Meter())
    meter.value = 3

assert meter.value == 3
