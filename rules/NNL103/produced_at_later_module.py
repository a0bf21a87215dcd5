"""The second invoke reads `h[0]` first, but the first invoke makes `clean` at `h[1]`.

When the second invoke resumes at `h[0]`, the first invoke has only got as far as `h[0]`.
"""
# runtime-raises: name 'clean' is not defined
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        clean = model.transformer.h[1].output[:, -1, :]
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[0].output
        hidden[:, -1, :] = clean  # expect: NNL103
