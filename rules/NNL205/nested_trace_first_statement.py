"""The nested trace is the outer trace's first statement, inside a session: the error then is an
AttributeError about `event`.
"""
# runtime-raises: 'NoneType' object has no attribute 'event'
with model.session():
    with model.trace("the cat sat"):
        with model.trace("a dog ran"):  # expect: NNL205
            hidden = model.transformer.h[0].output.save()
