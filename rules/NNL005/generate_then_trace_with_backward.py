"""Generate first (no gradients needed), then a separate `model.trace(...)` on the generated ids
with the backward: the trace's forward builds a graph.
"""
with model.generate("the cat sat", max_new_tokens=2):
    tokens = model.generator.output.save()

with model.trace(tokens):
    hidden = model.transformer.h[0].output
    with model.lm_head.output[0, -1].max().backward():
        hidden_grad = hidden.grad.save()

assert hidden_grad.shape[1] == tokens.shape[1]
