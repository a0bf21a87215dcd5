"""A loop inside the trace makes one invoke per prompt, each with a backward.

All the invokes share one graph: the backward of the first prompt frees it and the second one fails.
"""
prompts = ["hello world", "the cat sat", "a dog ran"]

with model.trace() as tracer:
    for prompt in prompts:
        with tracer.invoke(prompt):
            model.lm_head.output.sum().backward()  # expect: NNL001
