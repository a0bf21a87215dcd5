"""By hand for nnsight 0.8: the `.next()` steps of `v04_next_generation.py` become `tracer.iter`."""
with model.generate("hello world", max_new_tokens=3, do_sample=False) as tracer:
    steps = list().save()
    with tracer.iter[0:3]:
        steps.append(model.lm_head.output)

RESULT = {"first": steps[0][:, -1], "second": steps[1][:, -1], "third": steps[2][:, -1]}
