"""Old code stops the forward after the module it needs with `<module>.output.stop()`.

Since nnsight 0.5 a module's output inside a trace is the real tensor, which has no `stop`
(AttributeError); `tracer.stop()` stops the trace.
"""
# runtime-raises: has no attribute 'stop'
with model.trace("hello world the cat") as tracer:
    hidden = model.transformer.h[0].mlp.output.save()
    model.transformer.h[0].mlp.output.stop()  # expect: NNL302
