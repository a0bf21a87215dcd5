"""Token ids made by the tokenizer beforehand are a real input, even when built in a list."""
ids = model.tokenizer(["the cat sat"], return_tensors="pt")["input_ids"]
with model.trace(ids):
    logits = model.lm_head.output.save()

assert logits.shape[:2] == (1, 3)
