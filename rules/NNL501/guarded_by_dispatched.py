"""Code under `if model.dispatched:` knows the model's state; shapes and configs are fine on meta."""
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
if model.dispatched:
    scale = model.lm_head.weight.abs().max().item()
n_params = sum(p.numel() for p in model.parameters())
assert n_params > 0 and model.lm_head.weight.shape[0] == model.config.vocab_size
