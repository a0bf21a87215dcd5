"""A loop around a whole trace: each pass is a new trace with its own forward and graph.

One backward per trace; the run is clean.
"""
for prompt in ["hello world", "the cat sat", "a dog ran"]:
    with model.trace(prompt):
        model.lm_head.output.sum().backward()
