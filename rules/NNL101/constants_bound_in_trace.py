"""Plain constants bound inside a trace (`a = None`, `n = 3`, `s = "x"`) and read after it.

nnsight hands back only saved values when the trace exits, so the constants are undefined after it.
"""
# runtime-raises: name 'n' is not defined
with model.trace("hello world"):
    a = None
    n = 3  # expect: NNL101
    logits = model.lm_head.output.save()

print(n)
