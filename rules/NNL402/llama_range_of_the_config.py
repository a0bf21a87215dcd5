"""`range(model.config.num_hidden_layers)` walks exactly the layers Llama has.
"""
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

hidden = []
with model.trace("the cat sat"):
    for i in range(model.config.num_hidden_layers):
        hidden.append(model.model.layers[i].output.save())

assert len(hidden) == 2
