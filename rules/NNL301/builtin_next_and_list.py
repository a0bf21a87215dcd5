"""Builtin `next(...)`, `list()` and `dict()` used around a trace.

These are Python's builtins, not `module.next()` or `nnsight.list()`.
"""
layer_names = iter(["h0", "h1"])
first_name = next(layer_names)
per_layer = list()
with model.trace("a dog ran"):
    for block in model.transformer.h:
        per_layer.append(block.output.norm().save())

summary = dict(zip([first_name, next(layer_names)], per_layer))
print(summary)
