"""A loop over GPT-NeoX's layers reads Llama's `mlp.down_proj` (NeoX has `dense_4h_to_h`):
AttributeError on the first layer.
"""
# runtime-raises: has attribute 'down_proj'
from nnsight import LanguageModel
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoXForCausalLM(GPTNeoXConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                     vocab_size=12)),
    tokenizer=tokenizer(),
)

outputs = []
with model.trace("the cat sat"):
    for layer in model.gpt_neox.layers:
        outputs.append(layer.mlp.down_proj.output.save())  # expect: NNL401
