"""By hand for nnsight 0.8, as NNL202 says: the model's input is read before the submodule's output
(0.8 runs the body in forward order); the rest is what `migrate` changed."""
import torch

submodule = model.transformer.h[0].mlp
texts = ["hello world the cat", "the dog ran on"]
with torch.no_grad():
    with model.trace(texts) as tracer:
        inputs = model.inputs.save()
        hidden_states = submodule.output.save()
        tracer.stop()
    attn_mask = inputs[1]["attention_mask"]
    hidden_states = hidden_states[attn_mask != 0]

RESULT = {"hidden": hidden_states}
