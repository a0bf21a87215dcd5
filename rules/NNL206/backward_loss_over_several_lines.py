"""A backward block whose loss is written over several lines inside parentheses.

nnsight looks for the `with` block on the line `.backward()` is called from (its closing line here),
finds none, runs a plain backward and hands `with` its None.
"""
# runtime-raises: 'NoneType' object does not support the context manager protocol
with model.trace("hello world"):
    with (  # expect: NNL206
        model.lm_head.output.sum()
    ).backward():
        grad = model.transformer.wte.weight.grad.save()
