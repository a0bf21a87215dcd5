"""The step and the length come from variables: not compared (here they are fine)."""
n_new = 3
wanted = n_new - 1
with model.generate("the cat sat", max_new_tokens=n_new) as tracer:
    with tracer.iter[wanted]:
        logits = model.lm_head.output.save()

assert logits.shape[-1] == 12
