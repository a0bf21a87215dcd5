"""`model.trace()` with no input and no `tracer.invoke` in its body.

With no input nnsight runs the body at once to collect invokes, outside the model run, so the first
module read fails with an error that says "outside of interleaving" although it is in a trace.
"""
# runtime-raises: Cannot access `model.lm_head.output` outside of interleaving
with model.trace() as tracer:  # expect: NNL204
    logits = model.lm_head.output.save()
