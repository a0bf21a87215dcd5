"""The same reads in the order Llama's MLP runs them (`act_fn` inside, `down_proj` last): clean."""
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    gate = model.model.layers[0].mlp.gate_proj.output.save()
    activated = model.model.layers[0].mlp.act_fn.output.save()
    up = model.model.layers[0].mlp.up_proj.output.save()
    projected = model.model.layers[0].mlp.down_proj.output.save()

assert activated.shape == gate.shape == up.shape == (1, 3, 64) and projected.shape == (1, 3, 32)
