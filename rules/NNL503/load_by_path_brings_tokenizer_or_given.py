"""A load by path (here with the tokenizer given too) is not a model built in the program."""
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

assert logits.shape[:2] == (1, 3)
