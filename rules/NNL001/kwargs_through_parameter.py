"""A helper passes its caller's `**backward_kwargs` on to `.backward()`; what they hold is unknown
where the call is.

The only caller passes `retain_graph=True`, so the run is clean; the rule cannot tell and stays
silent.
"""


def attribute(lm, prompts, **backward_kwargs):
    with lm.trace() as tracer:
        for prompt in prompts:
            with tracer.invoke(prompt):
                lm.lm_head.output.sum().backward(**backward_kwargs)


attribute(model, ["hello world", "the cat sat"], retain_graph=True)
