"""Generation with an open `for step in tracer.iter[:]:` loop, then `tracer.result.save()` after it.

nnsight 0.8 ends an open loop by unwinding the block at the step past the last one, so the line
after the loop never runs and `tokens` is never bound.
"""
# runtime-raises: name 'tokens' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    logits = list().save()
    for step in tracer.iter[:]:
        logits.append(model.lm_head.output)
    tokens = tracer.result.save()  # expect: NNL201

print(tokens)
