"""Activations collected in a loop, a plain backward, then their gradients read in another loop.

None of the reads is inside `with loss.backward():`; all of them are None.
"""
grads = []
with model.trace("the mat sat on a dog"):
    acts = []
    for layer in model.transformer.h:
        acts.append(layer.output)
    model.lm_head.output.sum().backward()
    for act in acts:
        grads.append(act.grad.save())  # expect: NNL002

assert grads == [None, None]
