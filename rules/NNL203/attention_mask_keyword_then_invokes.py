"""A trace given only `attention_mask=`: not a model input by nnsight's count (no `input_ids` or
embeddings), so the invoke inside supplies the data and runs.
"""
import torch

with model.trace(attention_mask=torch.ones(1, 3)) as tracer:
    with tracer.invoke("a dog ran"):
        hidden = model.transformer.h[0].output.save()

assert hidden.shape == (1, 3, 32)
