"""A trace without input whose body touches no module: nnsight's own check then names the problem.
"""
# runtime-raises: trace() needs an input, or at least one `with tracer.invoke(...)` block
import nnsight

with model.trace():  # expect: NNL204
    label = nnsight.save("baseline")
