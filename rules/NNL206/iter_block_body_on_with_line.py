"""The deprecated block form `with tracer.iter[:2]:` with its body on the same line: it is a traced
`with` as well, unlike the `for` form.
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.generate("the cat sat", max_new_tokens=2) as tracer:
    steps = list().save()
    with tracer.iter[:2]: steps.append(model.lm_head.output)  # expect: NNL206
