"""A helper's backward runs in the first invoke, a direct backward in the second.

The helper frees the shared graph, so the direct backward fails.
"""


def push_logit_mass(logits):
    logits.logsumexp(-1).sum().backward()  # expect: NNL001


with model.trace() as tracer:
    with tracer.invoke("hello world"):
        push_logit_mass(model.lm_head.output)
    with tracer.invoke("the cat sat"):
        model.lm_head.output.sum().backward()
