"""Two traces one after the other, each with one backward.

Each trace runs its own forward and builds its own graph, so the run is clean.
"""
with model.trace("hello world"):
    model.lm_head.output.sum().backward()

with model.trace("the cat sat"):
    model.lm_head.output.sum().backward()
