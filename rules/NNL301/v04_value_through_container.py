"""On nnsight 0.4, saved proxies kept in a dict are still proxies after the trace: `.value` unwraps them.

0.4 replaces only the saved names bound in the trace's own frame; a dict's items stay proxies
(checked on nnsight 0.4.11). Correct for that target.
"""
# target-version: 0.4
saved = {}
with model.trace("hello world"):
    for i, block in enumerate(model.transformer.h):
        saved[i] = block.output[0].save()

shapes = {k: v.value.shape for k, v in saved.items()}
assert len(shapes) == 2
