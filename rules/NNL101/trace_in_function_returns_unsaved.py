"""A function opens the trace, binds the last token's hidden state without saving it, and returns it.

The trace pushes only saved values back into the function's frame; `last` is a local the function
never got, so the return raises `UnboundLocalError` (a `NameError`).
"""
# runtime-raises: cannot access local variable 'last'


def last_token_state(prompt):
    with model.trace(prompt):
        last = model.transformer.ln_f.output[:, -1, :]  # expect: NNL101
    return last


print(last_token_state("a dog ran").shape)
