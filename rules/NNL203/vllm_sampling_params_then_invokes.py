"""A vLLM trace whose keywords are sampling settings (`temperature=`, `max_tokens=`), with one
invoke per prompt: vLLM counts no keyword as input, so these invokes are not nested.
"""
# runtime: skip needs vLLM and a GPU
from nnsight.modeling.vllm import VLLM

engine = VLLM("openai-community/gpt2", dispatch=True)
with engine.trace(temperature=0.0, max_tokens=3) as tracer:
    outs = list().save()
    for prompt in ["the cat sat", "a dog ran"]:
        with tracer.invoke(prompt):
            outs.append(engine.logits.output)
