"""Old multi-token code advances the whole trace with `tracer.next()`.

nnsight 0.8 removed it; `tracer.iter[...]` walks the steps.
"""
# runtime-raises: 'InterleavingTracer' object has no attribute 'next'
with model.generate("hello world", max_new_tokens=3) as tracer:
    first = model.lm_head.output.save()
    tracer.next()  # expect: NNL301
    second = model.lm_head.output.save()
