"""On nnsight 0.4, `tracer.invoke(..., scan=False)` is the Invoker's own keyword: no fake-tensor scan.

Correct for a repo pinned to 0.4 (checked on nnsight 0.4.11).
"""
# target-version: 0.4
with model.trace(scan=False, validate=False) as tracer:
    with tracer.invoke("hello world the cat", scan=False):
        logits = model.lm_head.output.save()

assert logits.shape == (1, 4, 12)
