"""A parameter's value is read before the first trace: it is a meta tensor, with no data."""
# runtime-raises: Tensor.item() cannot be called on meta tensors
from nnsight import LanguageModel

from tests.tiny_model import saved_model_dir, tokenizer

saved_model_dir("/tmp/nnsight-lint-tiny-gpt2")
model = LanguageModel("/tmp/nnsight-lint-tiny-gpt2", tokenizer=tokenizer())
scale = model.lm_head.weight.abs().max().item()  # expect: NNL501
