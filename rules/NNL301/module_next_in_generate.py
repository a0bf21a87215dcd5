"""Old multi-token code moves to the next generation step with `module.next()`.

nnsight 0.8 has no `Envoy.next()`; steps are walked with `tracer.iter[...]` instead.
"""
# runtime-raises: has attribute 'next'
with model.generate("hello world", max_new_tokens=3):
    first = model.lm_head.output.save()
    second = model.lm_head.next().output.save()  # expect: NNL301
