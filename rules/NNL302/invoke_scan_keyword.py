"""0.2-0.4 code turns off an invoke's scan with `tracer.invoke(..., scan=False)`.

The 0.2-0.4 Invoker took `scan=`; since 0.5 an invoke hands its keywords to the model's inputs,
which ignore it (checked on 0.5.15 and 0.8.1): the invoke runs, the keyword does nothing.
"""
with model.trace() as tracer:
    with tracer.invoke("hello world the cat", scan=False):  # expect: NNL302
        logits = model.lm_head.output.save()

assert logits.shape == (1, 4, 12)
