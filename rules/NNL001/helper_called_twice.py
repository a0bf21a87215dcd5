"""A helper defined in this file calls backward; each of two invokes calls the helper.

The helper's backward runs twice on the shared graph: its first run frees it and the second fails.
"""


def push_logit_mass(logits):
    logits.logsumexp(-1).sum().backward()  # expect: NNL001


with model.trace() as tracer:
    with tracer.invoke("hello world"):
        push_logit_mass(model.lm_head.output)
    with tracer.invoke("the cat sat"):
        push_logit_mass(model.lm_head.output)
