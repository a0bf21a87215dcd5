"""0.2-0.4 code turns off the fake-tensor scan and validation with `scan=False, validate=False`.

nnsight 0.5+ has neither pass: `trace` hands the keywords on to the model's forward, which for
GPT-2 ignores them (another model raises TypeError). The trace runs; the keywords do nothing.
"""
with model.trace("hello world the cat", scan=False, validate=False):  # expect: NNL302
    logits = model.lm_head.output.save()

assert logits.shape == (1, 4, 12)
