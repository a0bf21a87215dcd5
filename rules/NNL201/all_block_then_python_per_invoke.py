"""Per prompt, a `with tracer.all():` block collects one layer at every step and the line after it
files the per-prompt list (a benchmark's shape). After the deprecated block form, pure Python
still runs in 0.8.1, so both lists arrive.
"""
with model.generate(max_new_tokens=3) as tracer:
    activations = list().save()
    for prompt in ["the cat sat", "a dog ran"]:
        with tracer.invoke(prompt):
            prompt_acts = list()
            with tracer.all():
                prompt_acts.append(model.transformer.h[1].output[0, -1])
            activations.append(prompt_acts)

assert [len(acts) for acts in activations] == [3, 3]
