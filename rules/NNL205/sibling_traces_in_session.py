"""Two sibling traces of the same model inside `model.session()`: neither is inside the other.
"""
with model.session():
    with model.trace("the cat sat"):
        clean = model.transformer.h[0].output.save()
    with model.trace("a dog ran"):
        corrupt = model.transformer.h[0].output.save()

assert clean.shape == corrupt.shape
