"""On nnsight 0.3, `if proxy:` inside a trace fails: the condition has no value yet.

0.3 has no graph conditions for `if` statements (that came with 0.4; 0.3 has `tracer.cond`):
Python asks the proxy for its truth value while the graph is built (checked on 0.3.7).
"""
# target-version: 0.3
# runtime-raises: has no attribute '__bool__'
with model.trace("hello world"):
    total = model.transformer.h[0].output[0].sum()
    if total > 0:  # expect: NNL507
        model.transformer.h[1].output[0][:] = 0
