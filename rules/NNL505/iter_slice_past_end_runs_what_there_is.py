"""`tracer.iter[1:5]` with 3 new tokens runs steps 1 and 2: a slice that starts below the end runs."""
outs = []
with model.generate("the cat sat", max_new_tokens=3) as tracer:
    with tracer.iter[1:5]:
        outs.append(model.lm_head.output.save())

assert len(outs) == 2
