"""A session of the language model holds a trace of the language model and, inside it, a trace of a
small head model built in this file.
"""
import torch
from nnsight import NNsight

head = NNsight(torch.nn.Linear(32, 2))
with model.session():
    with model.trace("hello world"):
        hidden = model.transformer.ln_f.output
        with head.trace(hidden.detach()):
            logits = head.output.save()

assert logits.shape == (1, 2, 2)
