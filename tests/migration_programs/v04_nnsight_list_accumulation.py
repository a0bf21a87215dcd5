"""nnsight 0.4: activations of two invokes gathered in an `nnsight.list()` saved in the trace body."""
import nnsight

with model.trace() as tracer:
    acts = nnsight.list().save()
    with tracer.invoke("hello world the cat"):
        acts.append(model.transformer.h[0].mlp.output)
    with tracer.invoke("the dog ran on"):
        acts.append(model.transformer.h[1].mlp.output)

RESULT = {"first": acts[0], "second": acts[1]}
