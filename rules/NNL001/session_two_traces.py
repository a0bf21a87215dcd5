"""A `model.session()` holding two traces, each with one backward.

Traces inside a session are still separate forwards with separate graphs: clean.
"""
with model.session():
    with model.trace("hello world"):
        model.lm_head.output.sum().backward()
    with model.trace("the cat sat"):
        model.lm_head.output.sum().backward()
