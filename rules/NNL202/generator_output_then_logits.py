"""In a generate trace, `model.generator.output` (the generated ids, handed over when generation
ends) is read before a per-step module: every step has run by then.
"""
# runtime-raises: 'model.lm_head.output.i0' was requested but the model already ran past it
with model.generate("the cat sat", max_new_tokens=3):
    tokens = model.generator.output.save()
    logits = model.lm_head.output.save()  # expect: NNL202
