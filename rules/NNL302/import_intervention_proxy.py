"""Type hints of 0.2-0.4 code import the proxy class: `from nnsight.intervention import InterventionProxy`.

Since nnsight 0.5 values in a trace are real tensors and the class is gone (ImportError).
"""
# runtime-raises: cannot import name 'InterventionProxy'
from nnsight.intervention import InterventionProxy  # expect: NNL302
