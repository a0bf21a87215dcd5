"""The trace's body is written on the `with` line.

nnsight intercepts a traced body at the start of its first line, so it refuses a body that shares
the `with` line.
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.trace("the cat sat"): logits = model.lm_head.output.save()  # expect: NNL206
