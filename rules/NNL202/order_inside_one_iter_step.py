"""Inside a `tracer.iter` loop, each pass pins one generation step, which is one forward: reading
`lm_head` and then `h[0]` in the same pass asks for a block the step already ran.
"""
# runtime-raises: 'model.transformer.h.0.output.i0' was requested but the model already ran past it
with model.generate("a dog ran", max_new_tokens=3) as tracer:
    trace_log = list().save()
    for step in tracer.iter[:3]:
        trace_log.append(model.lm_head.output)
        trace_log.append(model.transformer.h[0].output)  # expect: NNL202
