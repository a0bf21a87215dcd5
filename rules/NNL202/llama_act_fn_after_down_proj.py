"""Llama's MLP computes `down_proj(act_fn(gate_proj(x)) * up_proj(x))`: reading `act_fn` after
`down_proj` asks for a module the forward already passed. Only the measured forward order of the
known model says so (no naming convention orders `act_fn`).
"""
# runtime-raises: was requested but the model already ran past it
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    projected = model.model.layers[0].mlp.down_proj.output.save()
    activated = model.model.layers[0].mlp.act_fn.output.save()  # expect: NNL202
