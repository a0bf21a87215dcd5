"""On nnsight 0.4, `for i in range(N): ...; model.next()` is how a generate trace walks its steps.

Correct for a repo pinned to 0.4 (checked on nnsight 0.4.11): one saved logit row per step.
"""
# target-version: 0.4
logits = []
with model.generate("hello world", max_new_tokens=3) as tracer:
    for i in range(3):
        logits.append(model.lm_head.output[:, -1].save())
        model.next()

assert len(logits) == 3 and logits[2].value.shape[-1] == logits[0].value.shape[-1]
