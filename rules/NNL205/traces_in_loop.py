"""One trace per prompt, made in a loop: each trace finishes before the next opens.
"""
finals = []
for prompt in ["the cat sat", "a dog ran", "hello world"]:
    with model.trace(prompt):
        final = model.lm_head.output[0, -1].save()
    finals.append(final)

assert len(finals) == 3
