"""`nnsight.log(...)` prints a value from inside the trace, as nnsight <= 0.5 needed.

Since 0.6 the body is real Python: `print` works and `nnsight.log` is gone.
"""
# runtime-raises: module 'nnsight' has no attribute 'log'
import nnsight

with model.trace("hello world"):
    nnsight.log(model.lm_head.output.shape)  # expect: NNL301
