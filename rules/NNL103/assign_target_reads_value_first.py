"""The second invoke patches a block's last position with the first invoke's value.

An assignment evaluates its right side first: `clean` is read before the second invoke waits on
any module, when the first invoke has not reached `h[0]` yet.
"""
# runtime-raises: name 'clean' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        model.transformer.h[0].output[:, -1, :] = clean  # expect: NNL103
        patched = model.lm_head.output.save()
