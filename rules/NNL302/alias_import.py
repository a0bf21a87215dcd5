"""`import nnsight as ns` and `from nnsight import LanguageModel as LM`: names resolve through aliases.

`ns.contexts` is gone since 0.4 (AttributeError); `LM` is still there.
"""
# runtime-raises: has no attribute 'contexts'
import nnsight as ns
from nnsight import LanguageModel as LM

assert LM is ns.LanguageModel
tracer_class = ns.contexts.Tracer  # expect: NNL302
