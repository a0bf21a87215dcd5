"""A `model.generate()` trace binds the generated tokens without saving them.

A generate trace hands back saved values only, like `model.trace()`.
"""
# runtime-raises: name 'tokens' is not defined
with model.generate("hello world", max_new_tokens=3):
    tokens = model.generator.output  # expect: NNL101

print(tokens.shape)
