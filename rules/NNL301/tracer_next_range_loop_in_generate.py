"""nnsight 0.5-0.7 generation: `for i in range(N): ...; tracer.next()` inside `model.generate(...)`.

nnsight 0.8 has no `tracer.next()` (AttributeError); the loop becomes `for i in tracer.iter[:N]:`
without the `tracer.next()` (NNL301's unsafe fix; the two gave equal steered logits on 0.5.15
and 0.8.1).
"""
# runtime-raises: has no attribute 'next'
with model.generate("hello world", max_new_tokens=3) as tracer:
    steps = list().save()
    for i in range(3):
        model.transformer.h[0].mlp.output[:, -1] += 0.5
        steps.append(model.lm_head.output[:, -1])
        tracer.next()  # expect: NNL301
