"""A loop inside the trace makes one invoke per prompt, each backward retaining the graph.

The run is clean.
"""
prompts = ["hello world", "the cat sat", "a dog ran"]

with model.trace() as tracer:
    for prompt in prompts:
        with tracer.invoke(prompt):
            model.lm_head.output.sum().backward(retain_graph=True)
