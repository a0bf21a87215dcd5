"""GPT-2's `transformer.h` on a Llama (`model.layers`): AttributeError when the trace runs.
"""
# runtime-raises: has attribute 'transformer'
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    hidden = model.transformer.h[1].output.save()  # expect: NNL401
