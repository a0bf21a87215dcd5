"""The inner trace goes through an alias of the same model (`lm = model`).
"""
# runtime-raises: cyclic parent chain
lm = model

with model.trace("the cat sat"):
    outer = model.transformer.h[0].output.save()
    with lm.trace("a dog ran"):  # expect: NNL205
        inner = lm.transformer.h[0].output.save()
