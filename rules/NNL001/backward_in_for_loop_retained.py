"""A `for` loop inside the trace backpropagates one token's logits per pass, always retaining.

The run is clean.
"""
with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    for position in range(3):
        logits[0, position].sum().backward(retain_graph=True)
