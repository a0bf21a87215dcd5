"""`torch.nn.Module.apply(fn)` initialises a probe's weights; the probe reads a saved activation.

This `apply` is torch's, on a torch module, not `tracer.apply`.
"""
import torch

probe = torch.nn.Linear(32, 2)


def init_zero(module):
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.zeros_(module.weight)


probe.apply(init_zero)
with model.trace("hello world"):
    hidden = model.transformer.ln_f.output[:, -1, :].save()

assert probe(hidden).abs().sum().item() == probe.bias.abs().sum().item()
