# Source: https://github.com/ndif-team/nnsight/blob/main/tests/test_lm.py (condensed: test_set4, test_skip_2)
# transformers: 4.57
import torch
import pytest
import nnsight


@pytest.fixture(scope="module")
def gpt2(device: str):
    return nnsight.LanguageModel("openai-community/gpt2", device_map=device, dispatch=True)


def test_set4(gpt2, MSG_prompt):
    with gpt2.trace() as tracer:
        with tracer.invoke(MSG_prompt):
            gpt2.transformer.h[-1].output = (torch.zeros_like(gpt2.transformer.h[-1].output[0]),) + gpt2.transformer.h[-1].output[1:]

        with tracer.invoke(MSG_prompt):
            hs = gpt2.transformer.h[-1].output.save()
            out = gpt2.lm_head.output[0][-1].argmax(dim=-1).save()


def test_skip_2(gpt2):
    with gpt2.trace("_"):
        inp = gpt2.transformer.h[0].output.save()
        gpt2.transformer.h[1].inputs = ((torch.zeros_like(gpt2.transformer.h[1].input),)) + gpt2.transformer.h[1].inputs[1:]
        gpt2.transformer.h[1].skip(inp)
        out = gpt2.transformer.h[1].output.save()
