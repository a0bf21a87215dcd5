"""Gradients for two prompts in one batched trace: the classic NNL001 mistake.

`nnsight-lint check examples/` reports the first backward: both invokes run in ONE forward pass and
share ONE autograd graph, which the first backward frees before the second one runs.
"""
from nnsight import TransformersModel  # nnsight 0.8: `LanguageModel` is its deprecated alias

model = TransformersModel("openai-community/gpt2", task="text-generation", device_map="auto")
prompts = ["The Eiffel Tower is in the city of", "The Colosseum is in the city of"]

with model.trace() as tracer:
    with tracer.invoke(prompts[0]):
        hidden = model.transformer.h[5].output
        top_logit = model.lm_head.output[0, -1].max()
        with top_logit.backward():
            paris_grad = hidden.grad.save()
    with tracer.invoke(prompts[1]):
        hidden = model.transformer.h[5].output
        top_logit = model.lm_head.output[0, -1].max()
        with top_logit.backward():
            rome_grad = hidden.grad.save()

print(paris_grad.norm(), rome_grad.norm())
