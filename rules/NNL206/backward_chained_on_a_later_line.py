"""A backward block whose call chain continues on the next line: `.sum()` is closed below the `with`.

The `backward` name sits on a later line than the `with`: no block is found there (TypeError).
"""
# runtime-raises: 'NoneType' object does not support the context manager protocol
with model.trace("hello world"):
    with model.lm_head.output.sum(  # expect: NNL206
    ).backward():
        grad = model.transformer.wte.weight.grad.save()
