"""`model.session()` takes no input and is not a trace: the traces inside it have their inputs.
"""
with model.session():
    with model.trace("the cat sat"):
        first = model.lm_head.output.save()
    with model.trace("a dog ran"):
        second = model.lm_head.output.save()

assert first.shape == second.shape
