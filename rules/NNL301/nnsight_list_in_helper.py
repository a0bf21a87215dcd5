"""A helper makes the buffer the nnsight 0.4 way, `nnsight.list()`, called outside every trace.

nnsight 0.6 removed `nnsight.list` (AttributeError wherever it is called).
"""
# runtime-raises: has no attribute 'list'
import nnsight


def empty_buffer():
    return nnsight.list()  # expect: NNL301


buffer = empty_buffer()
