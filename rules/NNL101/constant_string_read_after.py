"""A label string bound inside the trace and printed after it is undefined there."""
# runtime-raises: name 'label' is not defined
with model.trace("the cat sat"):
    label = "layer 0"  # expect: NNL101
    h = model.transformer.h[0].output.save()

print(label, h.shape)
