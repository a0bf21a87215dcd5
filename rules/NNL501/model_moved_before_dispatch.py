"""The lazily loaded model is moved to a device before any trace: there are no weights to copy."""
# runtime-raises: Cannot copy out of meta tensor
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
model.to("cpu")  # expect: NNL501
