"""`AutoModelForCausalLM.from_config(...)` inline in the wrapper, with other keywords but no tokenizer."""
# runtime-raises: Impossible to guess which tokenizer to use
from nnsight import LanguageModel
from transformers import AutoModelForCausalLM, GPT2Config

config = GPT2Config(vocab_size=12, n_positions=32, n_embd=32, n_layer=2, n_head=2)
model = LanguageModel(AutoModelForCausalLM.from_config(config), device_map="cpu")  # expect: NNL503
