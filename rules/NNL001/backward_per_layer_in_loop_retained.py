"""The per-layer loop with `retain_graph=True`: every iteration keeps the graph for the next.

Clean (the graph is freed when the trace ends).
"""
with model.trace("the cat sat on the mat"):
    for index in range(2):
        model.transformer.h[index].output.sum().backward(retain_graph=True)
