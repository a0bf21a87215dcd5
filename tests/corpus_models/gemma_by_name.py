# Source: a research repo's nnsight logit lens helper (code search: "load_model_nnsight(modelname, device)")
# transformers: 4.45
from nnsight import LanguageModel


def load_model_nnsight(modelname, device):
    model = LanguageModel(modelname, device_map=device, dispatch=True)
    return model


def logitlens(prompt, model):
    with model.trace(prompt):
        hidden = [layer.output[0].save() for layer in model.model.layers]
    return hidden
