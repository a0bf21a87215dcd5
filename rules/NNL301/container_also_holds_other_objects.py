"""A dict made before the trace holds a saved activation and, after it, a config object of the user's.

Only the saved item is nnsight's: the config's `.value` is its own, and is not reported.
"""


class Setting:
    value = 0.5


results = {}
with model.trace("hello world"):
    results["hidden"] = model.transformer.h[0].output.save()

results["scale"] = Setting()
assert results["scale"].value == 0.5
