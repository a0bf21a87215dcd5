"""A diffusion pipeline's `generate(prompt=..., num_inference_steps=...)` without invokes: `prompt=`
is that model's input, and keywords the rule does not know are unknown, never "no input".
"""
# runtime: skip needs diffusers and a pipeline download
from nnsight.modeling.diffusion import DiffusionModel

pipe = DiffusionModel("segmind/tiny-sd", dispatch=True)
with pipe.generate(prompt="a cat", num_inference_steps=2) as tracer:
    image = tracer.result.save()
