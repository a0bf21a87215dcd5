"""A helper stops the trace the pre-0.6 way through its parameter, `m.<module>.output.stop()`,
called as `stop_after_first_block(model)` inside the trace: the parameter is the traced model.

On nnsight 0.8 a module's output is a plain tensor, without `.stop()` (AttributeError).
"""
# runtime-raises: has no attribute 'stop'
def stop_after_first_block(m):
    m.transformer.h[0].output.stop()  # expect: NNL302


with model.trace("hello world") as tracer:
    hidden = model.transformer.h[0].output.save()
    stop_after_first_block(model)
