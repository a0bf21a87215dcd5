"""Three backwards in the arms of one `if`/`elif`/`else`: exactly one runs.

The arms never run together, so the run is clean.
"""
reduction = "max"

with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    if reduction == "sum":
        logits.sum().backward()
    elif reduction == "mean":
        logits.mean().backward()
    else:
        logits.max().backward()
