"""Logits kept from a trace in a session are backpropagated again in the session body.

That later backward fails on the graph the trace's backward freed, but it is outside every trace, so
NNL001 does not look at it: this documents the rule's scope, not a finding.
"""
# runtime-raises: Trying to backward through the graph a second time
with model.session():
    with model.trace("the cat sat on the mat"):
        logits = model.lm_head.output
        logits.sum().backward()
    logits.mean().backward()
