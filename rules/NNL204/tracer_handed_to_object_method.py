"""The trace has no input and its body opens no invoke itself: it hands the tracer to a method of a
batch object, which opens one invoke per prompt. Code the linter does not follow may open the
invokes, so a tracer handed on is never a finding.
"""
class PromptBatch:
    def __init__(self, prompts):
        self.prompts = prompts

    def fill(self, tracer, store):
        for prompt in self.prompts:
            with tracer.invoke(prompt):
                store.append(model.lm_head.output)


with model.trace() as tracer:
    logits = list().save()
    PromptBatch(["the cat sat", "a dog ran"]).fill(tracer, logits)

assert len(logits) == 2
