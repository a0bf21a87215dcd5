"""nnsight 0.4, ARENA-style generation loops: `for i in range(N): ...; model.next()` inside
`model.generate(...)`, one reading every step's logits, one steering every step in an invoke.
The migration makes both `for i in tracer.iter[:N]:` (mechanical; NNL301's unsafe fix)."""
import torch

N = 3
plain, steered = [], []
with model.generate("hello world", max_new_tokens=N, do_sample=False, scan=False, validate=False) as generator:
    for i in range(N):
        plain.append(model.lm_head.output[:, -1].save())
        model.next()

with model.generate(max_new_tokens=N, do_sample=False) as generator:
    with generator.invoke("hello world the", scan=False):
        for n in range(0, N):
            hidden = model.transformer.h[0].mlp.output
            hidden[:, -1] += 0.5
            steered.append(model.lm_head.output[:, -1].save())
            model.next()

# On 0.4 the lists hold the saved proxies (`.value`); on 0.8 the values themselves.
RESULT = {"plain": torch.stack([step.value for step in plain]),
          "steered": torch.stack([step.value for step in steered])}
