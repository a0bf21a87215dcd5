"""`input_ids=` is an input just as a positional prompt is: the invoke inside is nested.
"""
# runtime-raises: Cannot invoke while the model is already running.
import torch

ids = torch.tensor([[4, 5, 6]])
with model.trace(input_ids=ids) as tracer:
    with tracer.invoke("a dog ran"):  # expect: NNL203
        other = model.transformer.h[0].output.save()
