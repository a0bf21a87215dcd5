"""Two independent `if` statements, each with a backward; both conditions hold.

Both run, so the first frees the graph the second needs.
"""
with_sum_loss = True
with_mean_loss = True

with model.trace("the cat sat on the mat"):
    logits = model.lm_head.output
    if with_sum_loss:
        logits.sum().backward()  # expect: NNL001
    if with_mean_loss:
        logits.mean().backward()
