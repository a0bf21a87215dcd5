"""A function opens a trace and saves inside it; the script calls the function at module level.

The save is inside the function's trace, so it runs with the trace running.
"""


def logits_for(prompt):
    with model.trace(prompt):
        logits = model.lm_head.output.save()
    return logits


print(logits_for("the cat sat").shape)
