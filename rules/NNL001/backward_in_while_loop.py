"""A `while` loop inside the trace calls backward on each pass without retaining.

The second pass needs the graph the first pass freed.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    position = 0
    while position < 3:
        logits[0, position].max().backward()  # expect: NNL001
        position += 1
