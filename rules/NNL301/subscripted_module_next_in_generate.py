"""Old multi-token code steps a decoder block with `model.transformer.h[0].next()`: a module path
with an index, as Llama code writes `model.model.layers[0].next()`.

nnsight 0.8 has no `Envoy.next()` (AttributeError); steps are walked with `tracer.iter[...]`.
"""
# runtime-raises: has attribute 'next'
with model.generate("hello world", max_new_tokens=3):
    first = model.transformer.h[0].output.save()
    second = model.transformer.h[0].next().output.save()  # expect: NNL301
