"""When does the forward reach a module? A partial order over `ModuleAccess`es, from what the
source says statically: literal indices into one module list, nesting, and Hugging Face naming;
where the model is known, the order its hooks fired in when the knowledge measured it.

`compare(a, b)` returns "<" (a is reached first), ">", "=" or "?" (cannot be known statically).
"""
from __future__ import annotations

from typing import Callable, Optional

from nnsight_lint.analysis.model import BackwardCall, ModuleAccess

# Siblings are ordered by these ranks; names that share a rank, or are unknown, are not ordered.
_RANKS = {
    # top level of a causal LM
    **dict.fromkeys(
        ["wte", "wpe", "embed_tokens", "embed_positions", "embeddings", "word_embeddings", "embed_in", "emb"],
        0,
    ),
    # inside a decoder block, in the order the block computes them
    **dict.fromkeys(["ln_1", "input_layernorm", "attention_norm", "norm1"], 1),
    **dict.fromkeys(["attn", "self_attn", "attention", "self_attention"], 2),
    **dict.fromkeys(["ln_2", "post_attention_layernorm", "ffn_norm", "norm2"], 3),
    **dict.fromkeys(["mlp", "feed_forward", "ffn"], 4),
    **dict.fromkeys(["h", "layers", "blocks", "layer"], 5),
    **dict.fromkeys(["ln_f", "norm", "final_layernorm", "final_layer_norm", "final_norm"], 6),
    **dict.fromkeys(["lm_head", "embed_out", "score", "classifier", "output_layer"], 7),
    # projections inside attention and MLP blocks: inputs before outputs
    **dict.fromkeys(["c_attn", "q_proj", "k_proj", "v_proj", "c_fc", "fc1", "gate_proj", "up_proj"], 10),
    **dict.fromkeys(["c_proj", "o_proj", "out_proj", "down_proj", "fc2", "dense_4h_to_h"], 11),
}


def _rank(path, start: int) -> Optional[int]:
    """Rank of the first named segment at or below `start` that has one (skipping wrappers like
    `transformer` or `model`)."""
    for segment in path[start:]:
        if isinstance(segment, str) and segment in _RANKS:
            return _RANKS[segment]
    return None


def compare(a: ModuleAccess, b: ModuleAccess, times: Optional[Callable[[ModuleAccess], Optional[float]]] = None) -> str:
    """`times`: when the model is known, the measured moment of an access in its forward
    (`schemas.forward_times`); the hand ranks decide where it has none."""
    if a == b:
        return "="
    shared = 0
    for x, y in zip(a.path, b.path):
        if x != y or x == "?":
            break
        shared += 1
    if shared == len(a.path) or shared == len(b.path):
        return _compare_nested(a, b, shared)
    x, y = a.path[shared], b.path[shared]
    if times is not None and "?" not in (x, y):
        time_a, time_b = times(a), times(b)
        if time_a is not None and time_b is not None and time_a != time_b:
            return "<" if time_a < time_b else ">"
    if isinstance(x, int) and isinstance(y, int):
        if (x < 0) != (y < 0):  # counted from opposite ends: only the first and the last are told apart
            return {(0, -1): "<", (-1, 0): ">"}.get((x, y), "?")
        return "<" if x < y else ">"
    if "?" in (x, y):
        return "?"
    rank_a, rank_b = _rank(a.path, shared), _rank(b.path, shared)
    if rank_a is None or rank_b is None or rank_a == rank_b:
        return "?"
    return "<" if rank_a < rank_b else ">"


def _compare_nested(a: ModuleAccess, b: ModuleAccess, shared: int) -> str:
    """One module contains the other: its input comes before, its output after, all of the child."""
    if len(a.path) == len(b.path):  # same module: its input comes before its output
        return "<" if a.kind == "input" else ">"
    outer = a if len(a.path) == shared else b
    outer_first = outer.kind == "input"
    return ("<" if outer_first else ">") if outer is a else (">" if outer_first else "<")


def runs_before(a: BackwardCall, b: BackwardCall) -> Optional[bool]:
    """Does backward `a` certainly run before `b` in the same trace? None: cannot be known.

    Each invoke's code runs until it waits for a module; the forward then serves the invokes in
    order at each module. So calls of one invoke run in source order, and calls of different
    invokes run in the order of the modules they wait for, then in invoke order.
    """
    if a.invoke == b.invoke:
        return a.order < b.order
    if a.waits_for is None or b.waits_for is None:
        return None
    order = compare(a.waits_for, b.waits_for)
    if order == "=":
        return a.invoke < b.invoke
    return {"<": True, ">": False}.get(order)
