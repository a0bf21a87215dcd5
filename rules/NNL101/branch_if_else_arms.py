"""Each arm of an `if`/`else` inside the trace binds `h` to a block's output; neither is saved.

The read after the trace sees whichever arm ran, so each binding needs `.save()`: here the first arm
runs (the prompt has two words), and saving only the last arm would still leave `h` undefined.
"""
# runtime-raises: name 'h' is not defined
prompt = "hello world"
with model.trace(prompt):
    if len(prompt.split()) == 2:
        h = model.transformer.h[0].output  # expect: NNL101
    else:
        h = model.transformer.h[1].output  # expect: NNL101

print(h.shape)
