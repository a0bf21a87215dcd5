"""`layers[i].output[0][:, -1]` on a Llama is hidden unit -1 of every token
of the first prompt, not the last token's state.
"""
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace(["the cat sat", "a dog ran"]):
    last = model.model.layers[0].output[0][:, -1].save()  # expect: NNL403

assert last.shape == (3,)
