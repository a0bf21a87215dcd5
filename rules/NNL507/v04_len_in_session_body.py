"""On nnsight 0.4, a value saved in a trace of a session is still a proxy in the session's body.

The session runs its traces when it ends, so `len()` there gets a proxy, not a tensor (checked on
0.4.11; 0.3.7 is the same).
"""
# target-version: 0.4
# runtime-raises: __index__ returned non-int
with model.session():
    with model.trace("hello world"):
        hidden = model.transformer.h[0].output[0].save()
    n_tokens = len(hidden[0])  # expect: NNL507
