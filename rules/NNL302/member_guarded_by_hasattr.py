"""A helper for every nnsight release picks the wrapped model by what the wrapper has: both arms of
an `if hasattr(...)` and of a conditional expression are version-switching code, not findings."""
if hasattr(model, "_model"):
    inner = model._model
else:
    inner = model._module
same = model._model if hasattr(model, "_model") else model._module
also = getattr(model, "_model", None) or model._module
old_only = hasattr(model, "_model") and model._model

assert inner is same is also and old_only is False
