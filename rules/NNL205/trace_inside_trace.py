"""A second `model.trace` of the same model opened inside a running trace (to get a "clean" run).

nnsight fails with `cyclic parent chain`, pointing at the outer `with`.
"""
# runtime-raises: cyclic parent chain
with model.trace("the cat sat"):
    corrupted = model.transformer.h[0].output.save()
    with model.trace("a dog ran"):  # expect: NNL205
        clean = model.transformer.h[0].output.save()
