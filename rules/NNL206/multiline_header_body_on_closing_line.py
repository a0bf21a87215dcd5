"""A `with` header spread over lines whose body sits on the header's closing line: nnsight compares
the body's line with the `with` keyword's line, so it accepts this (and runs the body once).
"""
calls = []
with model.trace(
    "the cat sat"
): calls.append("ran"); logits = model.lm_head.output.save()

assert calls == ["ran"]
assert logits.shape == (1, 3, 12)
