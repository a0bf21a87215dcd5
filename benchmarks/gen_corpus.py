"""Generate a deterministic nnsight-heavy corpus: N files of ~150 lines, each with traces,
invokes, backward blocks, helpers and ordinary code around them.

    python benchmarks/gen_corpus.py OUT_DIR [--files N] [--seed S]
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

HEADER = '''"""Attribution experiment {index}: gradients of {target} for a batch of prompts."""
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
PROMPTS = {prompts!r}
'''

HELPER = '''

def normalise_{index}_{n}(grad, eps=1e-6):
    """Scale a gradient to unit norm, leaving zeros alone."""
    norm = grad.norm(dim=-1, keepdim=True)
    return grad / (norm + eps)


def top_tokens_{index}_{n}(logits, k={k}):
    values, indices = logits[0, -1].topk(k)
    return [(int(i), float(v)) for v, i in zip(values, indices)]
'''

TRACE = '''

def attribute_{index}_{n}(prompts, layer={layer}):
    grads = []
    with model.trace() as tracer:
        for prompt in prompts:
            with tracer.invoke(prompt):
                hidden = model.transformer.h[layer].output
                logits = model.lm_head.output
                loss = logits[0, -1].max()
                with loss.backward({retain}):
                    grads.append(hidden.grad.save())
    return [normalise_{index}_{n}(g) for g in grads]


def compare_{index}_{n}():
    with model.trace() as tracer:
        with tracer.invoke(PROMPTS[0]):
            clean = model.transformer.h[{layer}].output.save()
            model.lm_head.output.sum().backward({retain})
        with tracer.invoke(PROMPTS[1]):
            corrupt = model.transformer.h[{layer2}].output.save()
            model.lm_head.output.sum().backward()
    return (clean - corrupt).abs().mean()
'''

FILLER = '''

class Report{index}_{n}:
    """Collects scores and prints a table."""

    def __init__(self, title):
        self.title = title
        self.rows = []

    def add(self, name, score):
        self.rows.append((name, round(float(score), 4)))

    def render(self):
        width = max((len(n) for n, _ in self.rows), default=4)
        lines = [self.title, "-" * (width + 10)]
        for name, score in sorted(self.rows, key=lambda r: -r[1]):
            lines.append(f"{{name:<{{width}}}}  {{score:>8}}")
        return "\\n".join(lines)
'''

MAIN = '''

def summarise_{index}(results, threshold={threshold}):
    """Keep the prompts whose attribution clears the threshold, best first."""
    kept = []
    for prompt, grads in results.items():
        score = sum(float(g.abs().mean()) for g in grads) / max(len(grads), 1)
        if score >= threshold:
            kept.append((prompt, score))
    kept.sort(key=lambda item: item[1], reverse=True)
    return kept


def run_{index}():
    results = {{}}
    for prompt in PROMPTS:
        results[prompt] = attribute_{index}_0([prompt])
    report = Report{index}_0("experiment {index}")
    for prompt, score in summarise_{index}(results):
        report.add(prompt, score)
    print(report.render())
    print(compare_{index}_1())
    # Two extra readings of the last layer, no gradients needed.
    with torch.no_grad():
        with model.trace(PROMPTS[-1]):
            last = model.transformer.h[-1].output.save()
    print(top_tokens_{index}_1(model.lm_head(last)))


if __name__ == "__main__":
    run_{index}()
'''


def generate(index: int, rng: random.Random) -> str:
    words = ["The Eiffel Tower is in", "The Colosseum is in", "Big Ben is in", "The Louvre is in"]
    parts = [HEADER.format(index=index, target=rng.choice(["logits", "loss"]), prompts=rng.sample(words, 3))]
    for n in range(2):
        parts.append(HELPER.format(index=index, n=n, k=rng.randint(3, 10)))
        retain = rng.choice(["", "retain_graph=True"])
        layer = rng.randint(0, 11)
        parts.append(TRACE.format(index=index, n=n, layer=layer, layer2=rng.randint(0, 11), retain=retain))
        parts.append(FILLER.format(index=index, n=n))
    parts.append(MAIN.format(index=index, threshold=rng.choice([0.01, 0.05, 0.1])))
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for index in range(args.files):
        (out / f"experiment_{index:04d}.py").write_text(generate(index, rng), encoding="utf-8")


if __name__ == "__main__":
    main()
