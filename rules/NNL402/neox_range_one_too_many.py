"""`range(3)` over a 2-layer GPT-NeoX reaches index 2: AttributeError on the last step.
"""
# runtime-raises: has attribute '2'
from nnsight import LanguageModel
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoXForCausalLM(GPTNeoXConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                     vocab_size=12)),
    tokenizer=tokenizer(),
)

hidden = []
with model.trace("the cat sat"):
    for i in range(3):
        hidden.append(model.gpt_neox.layers[i].output.save())  # expect: NNL402
