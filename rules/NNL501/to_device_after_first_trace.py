"""After a first trace the model is dispatched: moving inputs to its device and reading a
parameter are fine."""
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
with model.trace("the cat sat"):
    first = model.lm_head.output.save()
ids = model.tokenizer("a dog ran", return_tensors="pt")["input_ids"].to(model.device)
with model.trace(ids):
    second = model.lm_head.output.save()

assert model.lm_head.weight.abs().max().item() > 0
