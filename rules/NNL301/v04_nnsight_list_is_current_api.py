"""A repo pinned to nnsight 0.4 collects outputs in `nnsight.list()` and uses `tracer.apply`.

Both are the 0.4 API (checked on nnsight 0.4.11): correct for that target, nothing to report.
"""
# target-version: 0.4
import nnsight

with model.trace("hello world") as tracer:
    outputs = nnsight.list().save()
    for block in model.transformer.h:
        outputs.append(block.output[0])
    named = nnsight.dict().save()
    named["logits"] = model.lm_head.output
    n = tracer.apply(len, [1, 2]).save()

assert len(outputs) == 2 and n == 2
