"""One invoke backpropagates each block's output in turn, in a loop over the layers.

The first iteration's backward (at h[0]) frees the graph the second iteration (at h[1]) needs.
"""
with model.trace("the cat sat on the mat"):
    for index in range(2):
        model.transformer.h[index].output.sum().backward()  # expect: NNL001
