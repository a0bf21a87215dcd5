"""By hand for nnsight 0.8: a gradient is read inside `with metric.backward():` (NNL002 says so)."""
with model.trace("hello world the cat"):
    x = model.transformer.h[0].mlp.output
    x_saved = x.save()
    logits = model.lm_head.output
    metric = (logits[:, -1, 3] - logits[:, -1, 4]).sum()
    metric_saved = metric.save()
    with metric.backward():
        x_grad = x.grad.save()

RESULT = {"x": x_saved, "grad": x_grad, "metric": metric_saved}
