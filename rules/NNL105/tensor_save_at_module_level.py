"""A script saves a plain tensor with `.save()` at module level, as if it persisted it.

`.save()` marks a value to leave a trace; with no trace running nnsight 0.8 refuses it.
"""
# runtime-raises: save() was called outside a trace
import torch

baseline = torch.zeros(32)
baseline.save()  # expect: NNL105
