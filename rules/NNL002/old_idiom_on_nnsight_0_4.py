"""The documented nnsight 0.4 idiom: `.grad.save()` on an activation, then a plain backward.

On nnsight 0.4 this was right (the saved proxy received the gradient), so the linter, told the
target is 0.4, stays silent.
"""
# target-version: 0.4
with model.trace("the cat sat on the mat"):
    hidden = model.transformer.h[-1].output[0].save()
    hidden_grad = model.transformer.h[-1].output[0].grad.save()
    model.lm_head.output.sum().backward()

print(hidden_grad.shape)
