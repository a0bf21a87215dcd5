# Source: https://github.com/ndif-team/nnsight/blob/main/tests/test_batching.py (condensed)
# transformers: 4.57
import torch
import pytest
from nnsight.modeling.transformers import TransformersModel


@pytest.fixture(scope="module")
def gpt2():
    return TransformersModel("gpt2", task="text-generation", dispatch=True)


@torch.no_grad()
def test_each_invoke_sees_its_own_rows(gpt2):
    with gpt2.trace() as tracer:
        with tracer.invoke("the cat sat"):
            a = gpt2.transformer.h[0].output[0].save()
        with tracer.invoke("a much longer prompt appears here"):
            b = gpt2.transformer.h[0].output[0].save()
    assert a.shape[0] == b.shape[0]


@torch.no_grad()
def test_edit_changes_only_its_prediction(gpt2):
    with gpt2.trace("the cat sat"):
        base = gpt2.output.logits[0, -1].save()
    with gpt2.trace() as tracer:
        with tracer.invoke("the cat sat"):
            gpt2.transformer.wte.output[:] = 0
            zeroed = gpt2.output.logits[0, -1].save()
        with tracer.invoke("the cat sat"):
            intact = gpt2.output.logits[0, -1].save()
    assert not torch.allclose(zeroed, base, atol=1e-3)
