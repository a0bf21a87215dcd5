"""Multi-token generation walked with `tracer.iter[:]`, the API that replaced `.next()`.

Each step's top token is appended to a saved list.
"""
import nnsight

with model.generate("hello world", max_new_tokens=3) as tracer:
    tokens = nnsight.save([])
    for step in tracer.iter[:]:
        tokens.append(model.lm_head.output[:, -1, :].argmax(-1))

assert len(tokens) == 3
