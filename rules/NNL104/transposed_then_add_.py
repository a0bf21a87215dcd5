"""The final layer norm output is saved transposed; a steering vector is then added in place.

`.transpose` is a view: the saved tensor includes the steering (compare a clone taken before it).
"""
import torch

with model.trace("hello world"):
    ln = model.transformer.ln_f.output
    reference = ln.clone().save()
    before_t = ln.transpose(1, 2).save()  # expect: NNL104
    ln.add_(torch.ones(32))

assert torch.allclose(before_t.transpose(1, 2), reference + 1)
