"""The prompt comes from a variable (here a non-empty one): the linter does not guess its value."""
prompts = ["the cat sat", "a dog ran"]
for prompt in prompts:
    with model.trace(prompt):
        logits = model.lm_head.output.save()
    assert logits.shape[0] == 1
