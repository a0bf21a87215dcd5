"""An attribution script (0.4 era) fills a gradient cache with a comprehension over the layers,
then runs one plain backward.

Every entry is read outside a backward block, so every entry is None on nnsight 0.5+.
"""
import nnsight

with model.trace("the cat sat"):
    grad_cache = nnsight.save([
        model.transformer.h[i].output.grad.save()  # expect: NNL002
        for i in range(len(model.transformer.h))
    ])
    model.lm_head.output[0, -1].max().backward()

assert grad_cache == [None, None]
