"""`layers[-3]` on a 2-layer Llama: nnsight adds the length and says attribute '-1', which misleads.
"""
# runtime-raises: has attribute '-1'
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    hidden = model.model.layers[-3].output.save()  # expect: NNL402
