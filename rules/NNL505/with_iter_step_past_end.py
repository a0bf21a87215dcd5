"""`tracer.iter[5]` in a generation of 3 new tokens: step 5 never comes, so the body is skipped and
`logits` is undefined after the trace."""
# runtime-raises: name 'logits' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    with tracer.iter[5]:  # expect: NNL505
        logits = model.lm_head.output.save()

print(logits.shape)
