"""On nnsight 0.4, `if proxy:` inside a trace is fine: 0.4 makes it a graph condition.

The intervention in the body runs only when the condition holds at run time; here it does not, so
the layer's output is left as it was (checked on 0.4.11).
"""
# target-version: 0.4
with model.trace("hello world"):
    total = model.transformer.h[0].output[0].sum()
    if total < -1e9:
        model.transformer.h[1].output[0][:] = 0
    after = model.transformer.h[1].output[0].save()

assert after.abs().sum() > 0
