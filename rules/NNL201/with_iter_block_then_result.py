"""The deprecated block form `with tracer.iter[:]:`, then `tracer.result.save()` after it.

In 0.8.1 the first request after an open iter block waits for a step that never comes and is
dropped without a warning; `tokens` stays unbound.
"""
# runtime-raises: name 'tokens' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    logits = list().save()
    with tracer.iter[:]:
        logits.append(model.lm_head.output)
    tokens = tracer.result.save()  # expect: NNL201

print(tokens)
