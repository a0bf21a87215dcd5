"""The nnsight 0.5+ way to end a trace early: `tracer.stop()` after the last value it needs."""
with model.trace("hello world the cat") as tracer:
    hidden = model.transformer.h[0].mlp.output.save()
    tracer.stop()

assert hidden.shape[-1] == 32
