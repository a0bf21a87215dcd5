"""A list of prompts batched in ONE invoke, with one backward over the whole batch: clean."""
with model.trace() as tracer:
    with tracer.invoke(["hello world", "the cat"]):
        hidden = model.transformer.h[1].output
        logits = model.lm_head.output
        with logits.sum().backward():
            grad = hidden.grad.save()
