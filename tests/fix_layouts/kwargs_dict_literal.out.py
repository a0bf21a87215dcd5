"""Options from `**mapping` literals: a retain flag in the mapping is rewritten there; a mapping
without one gets the keyword after it. Never a second `retain_graph`."""
with_flag = {"retain_graph": True}
without_flag = {"create_graph": False}
from_dict_call = dict(retain_graph=True)

with model.trace() as tracer:
    with tracer.invoke("hello world"):
        model.lm_head.output.sum().backward(**with_flag)
    with tracer.invoke("the cat"):
        model.lm_head.output.sum().backward(**without_flag, retain_graph=True)
    with tracer.invoke("a dog"):
        model.lm_head.output.sum().backward(**from_dict_call)
    with tracer.invoke("sat on"):
        model.lm_head.output.sum().backward(**{"retain_graph": True})
    with tracer.invoke("the mat"):
        model.lm_head.output.sum().backward()
