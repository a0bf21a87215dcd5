"""nnsight 0.4, feature-circuits-style attribution: save a module's output and its gradient, then a
plain `loss.backward()` inside the trace."""
with model.trace("hello world the cat", scan=False, validate=False):
    x = model.transformer.h[0].mlp.output
    x_saved = x.save()
    x_grad = x.grad.save()
    logits = model.lm_head.output
    metric = (logits[:, -1, 3] - logits[:, -1, 4]).sum()
    metric_saved = metric.save()
    metric.backward()

RESULT = {"x": x_saved, "grad": x_grad, "metric": metric_saved}
