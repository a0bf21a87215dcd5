"""`model.dispatch()` loads the weights before the parameter is read."""
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
model.dispatch()
scale = model.lm_head.weight.abs().max().item()
assert scale > 0
