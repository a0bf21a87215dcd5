"""Two traces in one session read layers in opposite orders: each trace is its own forward.
"""
with model.session():
    with model.trace("the cat sat"):
        late = model.transformer.h[1].output.save()
    with model.trace("the cat sat"):
        early = model.transformer.h[0].output.save()

assert late.shape == early.shape
