"""A generate opened inside another generate of the same model.
"""
# runtime-raises: 'str' object has no attribute 'shape'
with model.generate("the cat sat", max_new_tokens=2) as tracer:
    with model.generate("a dog ran", max_new_tokens=2):  # expect: NNL205
        inner = model.lm_head.output.save()
