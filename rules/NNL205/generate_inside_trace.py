"""`model.generate` opened inside a trace of the same model: the error is an unrelated-looking
AttributeError from inside the run.
"""
# runtime-raises: 'str' object has no attribute 'shape'
with model.trace("the cat sat"):
    hidden = model.transformer.h[0].output.save()
    with model.generate("a dog ran", max_new_tokens=2):  # expect: NNL205
        continuation = model.lm_head.output.save()
