"""Tabs indentation, a multi-line call: the added line is indented with tabs too."""
import torch

with model.trace() as tracer:
	with tracer.invoke("hello world"):
		torch.autograd.grad(
			model.lm_head.output.sum(),
			model.lm_head.weight,
		)
	with tracer.invoke("the cat"):
		model.lm_head.output.sum().backward(  # last
		)
	with tracer.invoke("a dog"):
		model.lm_head.output.sum().backward()
