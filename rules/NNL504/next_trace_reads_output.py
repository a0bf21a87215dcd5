"""Two traces in a row: the second reads the head's output inside its own block."""
with model.trace("the cat sat"):
    first = model.lm_head.output.save()
with model.trace("a dog ran"):
    second = model.lm_head.output.save()

assert first.shape == second.shape
