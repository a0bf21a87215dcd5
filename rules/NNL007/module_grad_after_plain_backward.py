"""A plain backward, then `.grad` of the `lm_head` module (meant: its weight's).
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("a cat sat on the mat"):
    model.lm_head.output.sum().backward()
    head_grad = model.lm_head.grad.save()  # expect: NNL007
