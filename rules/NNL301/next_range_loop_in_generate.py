"""ARENA-style generation written for nnsight 0.4: `for i in range(N): ...; model.next()` inside
`model.generate(...)`, one step per pass.

nnsight 0.8 has no `.next()` (AttributeError); the loop becomes `for i in tracer.iter[:N]:` without
the `model.next()` (NNL301's unsafe fix, proven by tests/migration_programs/v04_next_loop.py).
"""
# runtime-raises: has attribute 'next'
logits = []
with model.generate("hello world", max_new_tokens=3) as tracer:
    for i in range(3):
        logits.append(model.lm_head.output[:, -1].save())
        model.next()  # expect: NNL301
