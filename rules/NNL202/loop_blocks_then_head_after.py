"""A loop reads each block's input then its output, and the head is read after the loop."""
pairs = []
with model.trace("the cat sat"):
    for i, layer in enumerate(model.transformer.h):
        pairs.append((layer.input.save(), layer.output.save()))
    logits = model.lm_head.output.save()

assert len(pairs) == 2 and logits.shape[-1] == 12
