"""Generate a second nnsight-heavy corpus, unlike the first (`gen_corpus.py`, which the tests use
too): files from 20 to 900 lines, traces of one to twelve invokes, Llama- and GPT-2-style paths,
steering, generation loops, sessions, classes holding the model, long helpers without any trace,
files with no nnsight at all, and notebooks. The speed goals are measured on both, so that the
numbers are not tuned to one shape.

    python benchmarks/gen_corpus_varied.py OUT_DIR [--files N] [--seed S]

About one file in eight is a notebook (`.ipynb`, markdown between the code cells).
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

MODELS = (("meta-llama/Llama-3.2-1B", "model.model.layers", "self_attn", "mlp.down_proj", "model.lm_head"),
          ("openai-community/gpt2", "model.transformer.h", "attn", "mlp.c_proj", "model.lm_head"),
          ("EleutherAI/pythia-160m", "model.gpt_neox.layers", "attention", "mlp.dense_4h_to_h", "model.lm_head"))

HEADER = '''"""{title}."""
import torch
import nnsight
from nnsight import LanguageModel

model = LanguageModel("{model_id}", device_map="auto", dispatch=True)
PROMPTS = {prompts!r}
'''

SNIPPETS = {
    "read": '''
def read_{n}(prompts):
    with model.trace() as tracer:
{invokes}
    return hidden_{n}
''',
    "steer": '''
def steer_{n}(prompt, vector, alpha={alpha}):
    with model.trace(prompt):
        {layers}[{layer}].output[:, -1, :] += alpha * vector
        logits_{n} = {head}.output.save()
    return logits_{n}
''',
    "sweep": '''
def sweep_{n}(prompt):
    outputs = []
    with model.trace(prompt):
        for layer in {layers}:
            outputs.append(layer.{mlp}.output.save())
    return torch.stack([o.norm() for o in outputs])
''',
    "generate": '''
def generate_{n}(prompt, steps={steps}):
    with model.generate(prompt, max_new_tokens=steps) as tracer:
        tokens_{n} = nnsight.save(list())
        with tracer.all():
            tokens_{n}.append({head}.output.argmax(dim=-1))
    return tokens_{n}
''',
    "session": '''
def patch_{n}(clean, corrupt):
    with model.session() as session:
        with model.trace(clean):
            cached = {layers}[{layer}].output.save()
        with model.trace(corrupt):
            {layers}[{layer}].output[:] = cached
            patched_{n} = {head}.output[:, -1].save()
    return patched_{n}
''',
    "grad": '''
def attribution_{n}(prompt):
    with model.trace(prompt):
        act = {layers}[{layer}].{attn}.output[0]
        loss = {head}.output[:, -1].logsumexp(-1).sum()
        with loss.backward():
            grad_{n} = act.grad.save()
    return grad_{n}
''',
    "class": '''
class Probe{n}:
    """Reads one layer of the wrapped model for a batch of prompts."""

    def __init__(self, model, layer={layer}):
        self.model = model
        self.layer = layer
        self.cache = {{}}

    def __call__(self, prompts):
        with self.model.trace(prompts):
            acts = {layers}[self.layer].output.save()
        self.cache[tuple(prompts)] = acts
        return acts

    def clear(self):
        self.cache.clear()
''',
    "helper": '''
def helper_{n}(values, *, scale={alpha}, names=None):
    """An ordinary function: no model, no trace."""
    names = names or [f"v{{i}}" for i in range(len(values))]
    table = {{}}
    for name, value in zip(names, values):
        if value is None:
            continue
        table[name] = round(float(value) * scale, 4)
    ordered = sorted(table.items(), key=lambda item: (-item[1], item[0]))
    lines = [f"{{name:>10}} {{score:8.4f}}" for name, score in ordered]
    return "\\n".join(lines), ordered[:{steps}]
''',
}

PLAIN = '''"""Utilities {index}: no nnsight here."""
import json
import os


def load_{index}(path):
    with open(path) as handle:
        return json.load(handle)


def save_{index}(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as handle:
        json.dump(data, handle, indent=2)
'''


def _invokes(rng: random.Random, n: int, layers: str, head: str) -> str:
    lines = []
    for k in range(rng.randint(1, 12)):
        lines.append(f"        with tracer.invoke(PROMPTS[{k % 3}]):")
        lines.append(f"            hidden_{n} = {layers}[{rng.randint(0, 11)}].output.save()")
        if rng.random() < 0.5:
            lines.append(f"            top_{n}_{k} = {head}.output.argmax(dim=-1).save()")
    return "\n".join(lines)


def _snippet(kind: str, n: int, rng: random.Random, model) -> str:
    _, layers, attn, mlp, head = model
    return SNIPPETS[kind].format(
        n=n, layers=layers, attn=attn, mlp=mlp, head=head, layer=rng.randint(0, 11), alpha=rng.randint(1, 8),
        steps=rng.randint(2, 9), invokes=_invokes(rng, n, layers, head) if kind == "read" else "")


def _parts(index: int, rng: random.Random):
    model = rng.choice(MODELS)
    words = ["The Eiffel Tower is in", "The Colosseum is in", "Big Ben is in", "The Louvre is in"]
    yield HEADER.format(title=f"Experiment {index}", model_id=model[0], prompts=rng.sample(words, 3))
    for n in range(rng.choice((1, 2, 3, 6, 12, 24))):
        yield _snippet(rng.choice(tuple(SNIPPETS)), n, rng, model)


def _notebook(parts) -> str:
    cells = []
    for n, source in enumerate(parts):
        if n:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": [f"## Step {n}\n"]})
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": source.strip("\n").splitlines(keepends=True)})
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                                    "display_name": "Python 3"}},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1)


def write(out: Path, files: int, seed: int) -> None:
    rng = random.Random(seed)
    for index in range(files):
        folder = out / f"project_{index % 7}" / ("notebooks" if index % 8 == 7 else "src")
        folder.mkdir(parents=True, exist_ok=True)
        if index % 5 == 4:
            (folder / f"utils_{index}.py").write_text(PLAIN.format(index=index))
        elif index % 8 == 7:
            (folder / f"experiment_{index}.ipynb").write_text(_notebook(list(_parts(index, rng))))
        else:
            (folder / f"experiment_{index}.py").write_text("".join(_parts(index, rng)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    write(args.out, args.files, args.seed)


if __name__ == "__main__":
    main()
