"""The MLPs are found by walking the torch model (`model._module`) and their outputs read in the
trace: a torch module has no `.output`."""
# runtime-raises: 'GPT2MLP' object has no attribute 'output'
outs = []
with model.trace("the cat sat"):
    for name, module in model._module.named_modules():
        if name.endswith("mlp"):
            outs.append(module.output.save())  # expect: NNL506
