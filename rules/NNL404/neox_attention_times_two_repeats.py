"""`attention.output * 2` on GPT-NeoX repeats the tuple, silently: four items, nothing doubled.
"""
import nnsight
from nnsight import LanguageModel
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoXForCausalLM(GPTNeoXConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                     vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    doubled = nnsight.save(model.gpt_neox.layers[0].attention.output * 2)  # expect: NNL404

assert isinstance(doubled, tuple) and len(doubled) == 4
