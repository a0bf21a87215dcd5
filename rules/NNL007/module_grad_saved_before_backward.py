"""The 0.4 idiom, but on the module instead of its output: `model.transformer.h[0].grad.save()`
before a plain backward. It fails at the read, before any backward.
"""
# runtime-raises: 'Envoy' object (nor its module) has attribute 'grad'
with model.trace("the mat sat"):
    first_grad = model.transformer.h[0].grad.save()  # expect: NNL007
    model.lm_head.output.sum().backward()
