"""nnsight 0.4, ARENA-style generation: the logits of every step, walked with `.next()`."""
with model.generate("hello world", max_new_tokens=3, do_sample=False, scan=False, validate=False):
    first = model.lm_head.output.save()
    second = model.lm_head.next().output.save()
    third = model.lm_head.next().output.save()

RESULT = {"first": first[:, -1], "second": second[:, -1], "third": third[:, -1]}
