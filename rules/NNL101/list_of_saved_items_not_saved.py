"""Each layer's output is saved, but the list holding them is built inside the trace and not saved.

The list is a new object nobody marked, so `hidden` does not leave the trace.
"""
# runtime-raises: name 'hidden' is not defined
with model.trace("the cat sat"):
    hidden = [layer.output.save() for layer in model.transformer.h]  # expect: NNL101

for h in hidden:
    print(h.shape)
