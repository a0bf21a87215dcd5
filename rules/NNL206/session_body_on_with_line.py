"""A session is traced as well: a one-line body is refused there too.
"""
# runtime-raises: The body of a traced `with` must start on its own line
with model.session(): ready = True  # expect: NNL206
