"""The nnsight 0.1 runner: `with model.forward(inference=False) as runner:` and `runner.invoke(...)`.

On 0.8 `model.forward` is the wrapped model's own forward: called with no input, it fails at once.
"""
# runtime-raises: You have to specify either input_ids or inputs_embeds
with model.forward(inference=False) as runner:  # expect: NNL301
    with runner.invoke("hello world") as invoker:
        hidden = model.transformer.h[0].output.save()
