"""The second invoke prints the first invoke's value before touching any module.

The second invoke runs up to its first module access at the start of the forward, before the
first invoke has bound `first_norm`.
"""
# runtime-raises: name 'first_norm' is not defined
with model.trace() as tracer:
    with tracer.invoke("hello world"):
        first_norm = model.transformer.h[0].output.norm()
    with tracer.invoke("the cat"):
        print("first invoke norm:", first_norm)  # expect: NNL103
        out = model.lm_head.output.save()
