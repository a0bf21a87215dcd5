"""An invoke whose body is on its `with` line, as in a compact notebook cell.
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.trace() as tracer:
    with tracer.invoke("hello world"): logits = model.lm_head.output.save()  # expect: NNL206
