"""Both arms of an `if` inside the trace bind `h` and both save it: the read after the trace is fine.

A look-alike of the unsaved arms: nothing to report.
"""
prompt = "hello world"
with model.trace(prompt):
    if len(prompt.split()) == 2:
        h = model.transformer.h[0].output.save()
    else:
        h = model.transformer.h[1].output.save()

assert h.shape[-1] == 32
