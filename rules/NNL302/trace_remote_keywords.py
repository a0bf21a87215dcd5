"""Keywords the 0.8 `trace` takes through its `**kwargs` chain (`remote=`, `backend=`, `blocking=`
on the remotable mixin) and generation keywords passed on to the model are not findings."""
with model.trace("hello world the cat", remote=False, blocking=True):
    logits = model.lm_head.output.save()
with model.generate("hello world", max_new_tokens=2, do_sample=False, remote=False):
    out = model.lm_head.output.save()

assert logits.shape == (1, 4, 12)
