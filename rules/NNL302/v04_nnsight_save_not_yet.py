"""Code written for nnsight 0.5+ saves with `nnsight.save(x)` in a project pinned to nnsight 0.4.

nnsight 0.4.11 has no `nnsight.save` (AttributeError); it saves with `x.save()`.
"""
# target-version: 0.4
# runtime-raises: has no attribute 'save'
import nnsight

with model.trace("hello world the cat"):
    hidden = nnsight.save(model.transformer.h[0].mlp.output)  # expect: NNL302
