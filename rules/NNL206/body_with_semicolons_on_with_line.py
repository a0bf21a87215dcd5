"""Two statements joined by `;` on a generate's `with` line, and a second context manager before
the trace in the same `with`.
"""
# runtime-raises: The body of a traced `with` must start on its own line
import torch

with torch.enable_grad(), model.generate("the cat sat", max_new_tokens=2): a = 1; tokens = model.generator.output.save()  # expect: NNL206
