"""`.detach()` before `.save()` looks like a copy, but it shares storage; the output is then `.zero_()`ed.

Detaching drops the graph, not the memory: the saved tensor reads zeros.
"""
with model.trace("hello world"):
    kept = model.transformer.h[0].mlp.output.detach().save()  # expect: NNL104
    model.transformer.h[0].mlp.output.zero_()

assert kept.abs().sum().item() == 0.0
