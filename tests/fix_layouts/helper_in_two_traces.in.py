"""A same-file helper runs a backward for two invokes in each of two traces: one edit, in the helper."""


def push_logit_mass(logits):
    logits.logsumexp(-1).sum().backward()


with model.trace() as tracer:
    with tracer.invoke("hello world"):
        push_logit_mass(model.lm_head.output)
    with tracer.invoke("the cat"):
        push_logit_mass(model.lm_head.output)

with model.trace() as tracer:
    with tracer.invoke("a dog"):
        push_logit_mass(model.lm_head.output)
    with tracer.invoke("sat on"):
        push_logit_mass(model.lm_head.output)
