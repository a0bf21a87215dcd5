"""Two invokes: the first saves the logits, the second captures a layer and runs a backward block
reading only its `.grad` (each invoke gets the gradient of its own rows).
"""
with model.trace() as tracer:
    with tracer.invoke("the cat sat"):
        first_logits = model.lm_head.output.save()
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[1].output
        with model.lm_head.output.sum().backward():
            hidden_grad = hidden.grad.save()

assert hidden_grad.shape[0] == 1
