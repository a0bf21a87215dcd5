"""With nnsight's vLLM wrapper the attention modules are vLLM's own, which return a tensor: here
`self_attn.output[0] = ...` writes the first token row, not into a tuple.
"""
# runtime: skip needs vLLM and a GPU
from nnsight.modeling.vllm import VLLM

engine = VLLM("meta-llama/Llama-3.2-1B", dispatch=True)
with engine.trace("the cat sat", temperature=0.0):
    engine.model.layers[0].self_attn.output[0] = 0
    logits = engine.logits.output.save()
