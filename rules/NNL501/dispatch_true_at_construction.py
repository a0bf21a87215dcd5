"""`dispatch=True` loads the weights at construction: the parameter and the device are real."""
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer(), dispatch=True)
scale = model.lm_head.weight.abs().max().item()
ids = model.tokenizer("the cat sat", return_tensors="pt")["input_ids"].to(model.device)
with model.trace(ids):
    logits = model.lm_head.output.save()

assert scale > 0 and logits.shape[1] == 3
