"""A generate trace without input whose invokes are made in a loop over prompts.
"""
with model.generate(max_new_tokens=2) as tracer:
    tokens = list().save()
    for prompt in ["the cat sat", "a dog ran"]:
        with tracer.invoke(prompt):
            tokens.append(model.lm_head.output.argmax(dim=-1))

assert len(tokens) == 2
