"""On nnsight 0.4, after the session ends its saved values are tensors: `len()` works (checked on 0.4.11)."""
# target-version: 0.4
with model.session():
    with model.trace("hello world"):
        hidden = model.transformer.h[0].output[0].save()
    for word in ["the", "cat"]:
        prompt = f"{word} sat"

assert len(hidden[0]) == 2 and prompt == "cat sat"
