"""0.2/0.3 code imports the tracer types from `nnsight.contexts`, a package gone since 0.4."""
# runtime-raises: No module named 'nnsight.contexts'
import nnsight.contexts  # expect: NNL302
