"""A model loaded by path is still on the meta device: `ids.to(model.device)` moves the ids there,
and the trace then cannot copy them out."""
# runtime-raises: Cannot copy out of meta tensor
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
ids = model.tokenizer("the cat sat", return_tensors="pt")["input_ids"].to(model.device)  # expect: NNL501
with model.trace(ids):
    logits = model.lm_head.output.save()
