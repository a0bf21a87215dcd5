"""nnsight 0.3, dictionary-learning's activation buffer: save a submodule's output and the model's
input, stop the forward right after the submodule, read both with `.value`."""
import torch

submodule = model.transformer.h[0].mlp
texts = ["hello world the cat", "the dog ran on"]
with torch.no_grad():
    with model.trace(texts, scan=False, validate=False) as tracer:
        hidden_states = submodule.output.save()
        inputs = model.inputs.save()
        submodule.output.stop()
    attn_mask = inputs.value[1]["attention_mask"]
    hidden_states = hidden_states.value
    hidden_states = hidden_states[attn_mask != 0]

RESULT = {"hidden": hidden_states}
