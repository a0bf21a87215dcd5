"""A function opens a trace with one backward; calling it twice makes two separate traces.

Each trace has its own graph, so the run is clean.
"""


def logit_grad_norm(prompt):
    with model.trace(prompt):
        model.lm_head.output.sum().backward()


logit_grad_norm("hello world")
logit_grad_norm("the cat sat")
