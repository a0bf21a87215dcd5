"""`layers[0].output[0][:, -1, :]` on GPT-NeoX: `[0]` already dropped the
batch dimension.
"""
# runtime-raises: too many indices for tensor of dimension 2
from nnsight import LanguageModel
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoXForCausalLM(GPTNeoXConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                     vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    last = model.gpt_neox.layers[0].output[0][:, -1, :].save()  # expect: NNL403
