"""`for step in tracer.iter[3]` with `max_new_tokens=3`: the steps are 0, 1 and 2."""
# runtime-raises: name 'logits' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    for step in tracer.iter[3]:  # expect: NNL505
        logits = model.lm_head.output.save()

print(logits.shape)
