"""A vLLM model's modules are vLLM's own (`model.layers[i].self_attn` returns a tensor there, and
paths differ from transformers'): the model rules do not look at it.
"""
# runtime: skip vLLM is not installed in the test environment
from nnsight.modeling.vllm import VLLM

model = VLLM("openai-community/gpt2", tensor_parallel_size=1, dispatch=True)

with model.trace("the cat sat", temperature=0.0):
    hidden = model.transformer.h[0].self_attn.output[:, -1].save()
    block = model.transformer.h[20].output[0].save()
