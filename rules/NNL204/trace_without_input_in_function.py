"""A helper opens `model.trace()` without input and reads a layer; the prompt it was meant to get
is never passed.
"""
# runtime-raises: Cannot access `model.transformer.h.1.output` outside of interleaving
def last_hidden(prompt):
    with model.trace():  # expect: NNL204
        hidden = model.transformer.h[1].output.save()
    return hidden


last_hidden("the cat sat")
