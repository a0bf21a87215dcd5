# Source: an nnsight remote example over Llama 3.1 8B (code search: "llama.model.layers[4].output[0].save()")
# transformers: 4.45
import nnsight
import torch

llama = nnsight.LanguageModel("meta-llama/Llama-3.1-8B", torch_dtype=torch.float16, device_map="auto")
with llama.trace("Jungles become parks, but ") as tracer:
    output = llama.model.layers[4].output[0].save()
    attention = llama.model.layers[4].self_attn.output[0].save()
