"""Inside an invoke, an open loop collects logits and the line after it appends a marker.

Nothing fails: the append after the loop is silently skipped, so the saved list lacks it.
"""
with model.generate(max_new_tokens=3) as tracer:
    with tracer.invoke("the cat sat"):
        collected = list().save()
        for step in tracer.iter[:]:
            collected.append(model.lm_head.output.argmax(dim=-1))
        collected.append("end")  # expect: NNL201

assert len(collected) == 3
assert "end" not in collected
