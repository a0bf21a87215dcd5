"""An invoke opened inside a `tracer.iter` loop: the loop body runs during generation.
"""
# runtime-raises: Cannot invoke while the model is already running.
with model.generate(max_new_tokens=3) as tracer:
    with tracer.invoke("the cat sat"):
        for step in tracer.iter[:2]:
            with tracer.invoke("a dog ran"):  # expect: NNL203
                extra = model.lm_head.output.save()
