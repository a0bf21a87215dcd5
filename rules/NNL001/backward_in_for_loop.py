"""A `for` loop inside the trace backpropagates one token's logits per pass, without retaining.

The call runs again on the next pass, after the first pass freed the graph.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    for position in range(3):
        logits[0, position].sum().backward()  # expect: NNL001
