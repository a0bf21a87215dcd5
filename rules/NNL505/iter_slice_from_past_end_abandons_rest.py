"""`tracer.iter[3:]` with 3 new tokens never starts; the statement after it in the block is
abandoned too, so `last` is undefined although it is not in the loop (NNL201 says so of any
open `iter[k:]`)."""
# runtime-raises: name 'last' is not defined
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    with tracer.iter[3:]:  # expect: NNL505
        hidden = model.transformer.h[0].output.save()
    last = model.lm_head.output.save()  # expect: NNL201

print(last.shape)
