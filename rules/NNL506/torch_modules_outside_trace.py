"""Torch modules used outside any trace (counting parameters, naming MLPs) are just torch."""
n_params = sum(p.numel() for p in model._module.parameters())
mlps = [name for name, m in model._module.named_modules() if name.endswith("mlp")]
with model.trace("the cat sat"):
    out = model.transformer.h[0].mlp.output.save()

assert n_params > 0 and len(mlps) == 2
