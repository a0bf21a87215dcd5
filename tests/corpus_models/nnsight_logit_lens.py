# Source: https://nnsight.net/notebooks/tutorials/logit_lens/ (the tutorial's trace, condensed)
# transformers: 4.45
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto", dispatch=True)
prompt = "The Eiffel Tower is in the city of"
layers = model.transformer.h
probs_layers = []
with model.trace() as tracer:
    with tracer.invoke(prompt) as invoker:
        for layer_idx, layer in enumerate(layers):
            layer_output = model.lm_head(model.transformer.ln_f(layer.output[0]))
            probs = layer_output.softmax(dim=-1).save()
            probs_layers.append(probs)
