"""The value comes from `h[0]` in the first invoke and patches `h[1]` in the second.

Different modules do not help: the second invoke reads `clean` before waiting on any module.
"""
# runtime-raises: name 'clean' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[0].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        model.transformer.h[1].output[:, -1, :] = clean  # expect: NNL103
        patched = model.lm_head.output.save()
