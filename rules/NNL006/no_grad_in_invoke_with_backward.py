"""In the second invoke of a batched trace, `torch.no_grad()` spans a read, and the invoke's
backward block asks for an earlier layer's gradient.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
import torch

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.save()
    with tracer.invoke("a cat ran"):
        embedded = model.transformer.wte.output
        with torch.no_grad():  # expect: NNL006
            block = model.transformer.h[0].output
        with model.lm_head.output.sum().backward():
            embedded_grad = embedded.grad.save()
