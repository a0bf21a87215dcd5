"""Generate `nnsight_lint/knowledge/models/envoy_attributes.json`: the attribute names an nnsight model (and
each of its modules) answers besides its submodules, read from the installed nnsight, torch and
transformers.

NNL401 (unknown-module) accepts these on any module path: nnsight's Envoy API (`.output`, `.next`,
`.source`, `.skip`, `.trace`, `.dispatch_model`, ...), the wrapper's own attributes (`.tokenizer`,
`.config`), torch's `nn.Module` API and transformers' `PreTrainedModel` API. A module's own
parameters, buffers and instance attributes come from the model schemas (`knowledge/models.py`).

    python scripts/gen_envoy_attributes.py          # rewrite the table
    python scripts/gen_envoy_attributes.py --check  # exit 1 when the table differs from a fresh one
"""
from __future__ import annotations

import json
import os
import sys
import warnings

TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "nnsight_lint", "knowledge",
                     "models", "envoy_attributes.json")


def generate() -> dict:
    warnings.simplefilter("ignore")
    import nnsight
    import torch
    import transformers
    from nnsight.intervention.envoy import Envoy
    from transformers import GPT2Config, GPT2LMHeadModel

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.tiny_model import tokenizer

    def public(names) -> set:
        return {n for n in names if not n.startswith("_")}

    model = nnsight.LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=12)),
                                  tokenizer=tokenizer())
    block = model.transformer.h[0]
    children = set(dict(model._module.named_modules()).keys()) | {
        name for path in dict(model._module.named_modules()) for name in path.split(".")}
    envoy = public(dir(Envoy)) | public(dir(type(model))) | public(dir(model)) | public(dir(block))
    envoy -= children
    module = public(dir(torch.nn.Module))
    pretrained = public(dir(transformers.PreTrainedModel)) - module
    return {
        "generated_by": "scripts/gen_envoy_attributes.py",
        "nnsight": nnsight.__version__,
        "torch": torch.__version__.split("+")[0],
        "transformers": transformers.__version__,
        "envoy": sorted(envoy - module - pretrained),
        "module": sorted(module),
        "pretrained": sorted(pretrained),
    }


def main(argv) -> int:
    fresh = generate()
    text = json.dumps(fresh, indent=0, sort_keys=True) + "\n"
    if "--check" in argv:
        with open(TABLE, encoding="utf-8") as handle:
            return 0 if handle.read() == text else 1
    with open(TABLE, "w", encoding="utf-8") as handle:
        handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
