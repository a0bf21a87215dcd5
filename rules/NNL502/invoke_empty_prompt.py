"""An invoke given the empty string adds a batch entry of no tokens."""
# runtime-raises: cannot reshape tensor of 0 elements
with model.trace() as tracer:
    with tracer.invoke(""):  # expect: NNL502
        logits = model.lm_head.output.save()
