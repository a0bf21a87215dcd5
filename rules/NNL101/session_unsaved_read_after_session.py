"""Inside a session, a trace's unsaved value flows to a second trace (fine there), then is read after the session.

Between traces of a session unsaved values work; leaving the session still needs `.save()`.
"""
# runtime-raises: name 'patch' is not defined
with model.session():
    with model.trace("hello world"):
        patch = model.transformer.h[0].output[:, -1, :]  # expect: NNL101
    with model.trace("the cat"):
        model.transformer.h[0].output[:, -1, :] = patch
        patched = model.lm_head.output.save()

print(patched.shape, patch.shape)
