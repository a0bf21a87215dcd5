"""The invoke binds its logits; the trace body saves them after the invoke, outside it.

The `nnsight.save` in the body runs before the invoke body, when `logits` does not exist yet.
"""
# runtime-raises: name 'logits' is not defined
import nnsight

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        logits = model.lm_head.output
    nnsight.save(logits)  # expect: NNL102

print(logits.shape)
