# Source: https://github.com/MaheepChaudhary/Transit/blob/main/exp.py (condensed)
# transformers: 4.40
from nnsight import LanguageModel

model = LanguageModel("EleutherAI/pythia-70m", device_map="cpu")
with model.trace("One day, a dog was roaming") as tracer:
    output = model.embed_out.output.save()
    hidden = model.gpt_neox.layers[5].mlp.dense_4h_to_h.output.save()
