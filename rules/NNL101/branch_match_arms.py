"""Each `case` of a `match` inside the trace binds `h`; none is saved.

The read after the trace sees the binding of the case that matched (here the first), so each
needs `.save()`.
"""
# runtime-raises: name 'h' is not defined
where = "early"
with model.trace("hello world"):
    match where:
        case "early":
            h = model.transformer.h[0].output  # expect: NNL101
        case _:
            h = model.transformer.h[1].output  # expect: NNL101

print(h.shape)
