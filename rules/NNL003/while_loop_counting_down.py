"""A `while` loop that counts the layer index down reads the gradients from the last layer to the
first.
"""
grads = {}
with model.trace("a dog sat on the mat"):
    acts = [model.transformer.h[i].output for i in range(2)]
    with model.lm_head.output.sum().backward():
        i = len(acts) - 1
        while i >= 0:
            grads[i] = acts[i].grad.save()
            i -= 1

assert sorted(grads) == [0, 1]
