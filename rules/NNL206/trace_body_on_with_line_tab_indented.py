"""A trace whose body sits on the `with` line, in a file that indents with tabs.

The fix moves the body onto its own line, indented with a tab as the rest of the file.
"""
# runtime-raises: must start on its own line


def shape_of(value):
	return tuple(value.shape)


with model.trace("hello world"): hidden = model.transformer.h[0].output.save()  # expect: NNL206

assert shape_of(hidden) == (1, 2, 32)
