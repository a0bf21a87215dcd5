#!/usr/bin/env python3
"""Generate `nnsight_lint/knowledge/nnsight_api.json`: what each nnsight minor release offers its
users, read from the releases themselves.

    python scripts/gen_api_table.py                # every minor (0.2 .. 0.8): venvs, record, write, coverage
    python scripts/gen_api_table.py --check        # the same, compared with the bundled table (exit 1 if not equal)
    python scripts/gen_api_table.py record         # print what the nnsight installed HERE offers, as JSON
    python scripts/gen_api_table.py venv 0.4.11 --path .venv-nnsight-0.4   # one release's venv (the migration tests)

For every release in `RELEASES` it makes a scratch venv under `/tmp/api-table/venvs/<version>`:
`pip install --no-deps nnsight==<version>` plus `PINS[minor]` (what that release needs to import
that the base venv does not give it), and a `.pth` line pointing at the base venv's site-packages
(torch 2.13 and the rest), listed after the scratch site-packages, so the scratch copies of nnsight
and transformers win. Then it runs `record` in that venv: the release's public modules and names,
the members of the objects users touch (the model wrapper, an Envoy, the tracer, invoker, session,
a module's output inside a trace, a saved value), read from live objects of a tiny offline GPT-2
(class MRO and instance attributes, properties included), and the parameters of `trace`,
`generate`, `session`, `scan`, `invoke` and `LanguageModel(...)` (with where `**kwargs` go: the
tracer's constructor).

The table stores ranges, not copies: each name maps to "ADDED:REMOVED" (minor versions; empty for
"before the first recorded" / "still there"), several ranges joined by ",".
"""
from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor
import importlib
import importlib.metadata
import inspect
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "nnsight_lint" / "knowledge" / "nnsight_api.json"
SCRATCH = Path(os.environ.get("API_TABLE_SCRATCH", "/tmp/api-table"))

# The last release of every minor.
RELEASES = {
    "0.2": "0.2.21", "0.3": "0.3.7", "0.4": "0.4.11", "0.5": "0.5.15",
    "0.6": "0.6.3", "0.7": "0.7.0", "0.8": "0.8.1",
}
# What a release needs to import beyond the base venv (torch 2.13, transformers 5.24, pydantic 2,
# ...): found by installing it and importing it. Transformers 5 dropped what these imported.
_OLD_TRANSFORMERS = ["transformers==4.46.3", "tokenizers==0.20.3", "huggingface-hub==0.36.0", "accelerate==1.1.1"]
PINS: Dict[str, List[str]] = {
    "0.2": _OLD_TRANSFORMERS + ["python-socketio[client]", "diffusers==0.31.0", "einops"],
    "0.3": _OLD_TRANSFORMERS + ["python-socketio[client]", "diffusers==0.31.0", "einops"],
    "0.4": _OLD_TRANSFORMERS + ["python-socketio[client]", "diffusers==0.31.0", "einops", "msgspec", "toml"],
    "0.5": ["dill", "astor", "toml", "python-socketio[client]", "accelerate"],
    "0.6": ["astor", "toml", "python-socketio[client]", "accelerate"],
    "0.7": ["astor", "toml", "python-socketio[client]", "accelerate"],
    "0.8": [],
}
# Submodules a walk does not import: optional backends that need what is not installed.
_SKIP = ("vllm", "tests", "test", "ray", "serve", "benchmarks")
ROLES = ("model", "envoy", "tracer", "invoker", "session", "generator", "output", "saved")
CALLS = ("trace", "generate", "session", "scan", "invoke", "LanguageModel", "tracer")


# -- recording one release (runs inside its venv; stdlib + what the release imports) -------------

def _origin(value) -> str:
    if inspect.ismodule(value):
        return value.__name__
    if inspect.isclass(value) or inspect.isroutine(value):
        return getattr(value, "__module__", "") or ""
    return type(value).__module__ or ""


def _defined_in_nnsight(value) -> bool:
    """A function nnsight wrote but named as a builtin (0.4's `nnsight.list` says `__module__ ==
    "builtins"`): its code is in nnsight's files."""
    code = getattr(value, "__code__", None) if inspect.isfunction(value) else None
    return code is not None and f"{os.sep}nnsight{os.sep}" in code.co_filename


def _public_names(module) -> List[str]:
    """The names a module offers that come from nnsight: its own classes, functions, objects and
    submodules, not what it imported from torch or typing."""
    names = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        try:
            value = getattr(module, name)
        except Exception:
            continue
        if _origin(value).split(".")[0] == "nnsight" or _defined_in_nnsight(value):
            names.append(name)
    return sorted(names)


def _modules(nnsight) -> Dict[str, List[str]]:
    found = {"nnsight": _public_names(nnsight)}
    for info in pkgutil.walk_packages(nnsight.__path__, "nnsight.", onerror=lambda name: None):
        parts = info.name.split(".")[1:]
        if any(p.startswith("_") or p in _SKIP for p in parts):
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # an optional backend; not importable on a plain install
            continue
        found[info.name] = _public_names(module)
    return found


def _members(value) -> Optional[List[str]]:
    """What `value.<name>` finds without `__getattr__` forwarding: its class (whole MRO, properties
    included) and its instance attributes. None for a value that is not nnsight's (a torch tensor):
    then only what nnsight put on it beyond its class."""
    cls = type(value)
    names = set(dir(cls))
    try:
        names |= set(vars(value)) - _wrapped_names(value)
    except TypeError:
        pass
    if _origin(cls).split(".")[0] != "nnsight":
        names -= set(dir(cls))
    return sorted(n for n in names if not (n.startswith("__") and n.endswith("__")))


def _wrapped_names(value) -> set:
    """What the torch module a wrapper or Envoy wraps has (its submodules, parameters, ...): an
    Envoy mirrors them as attributes of its own, but they are the model's, not nnsight's API."""
    for attr in ("_module", "_model", "module", "model"):
        wrapped = vars(value).get(attr)  # a torch module, or (0.4) a weakref proxy of one
        if wrapped is not None and hasattr(wrapped, "named_children"):
            return set(wrapped.__dir__())  # through a weakref proxy too
    return set()


def _signature(*functions, handed=()) -> Dict[str, object]:
    """The keywords of a call: the parameters of every function given (a method and the ones it
    hands `**kwargs` to: the same method up the class's MRO, `super().trace(**kwargs)`). `handed`:
    functions the call hands its `*args, **kwargs` to after arguments of its own
    (`invoke(*inputs, **kwargs)` -> `Invoker(tracer, *inputs, **kwargs)`): their parameters before
    the `*args` are filled by the call, not by its caller."""
    params, var_kw = set(), False
    for function in (*functions, *handed):
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            var_kw = True
            continue
        if function in handed and any(p.kind is p.VAR_POSITIONAL for p in parameters):
            parameters = parameters[[p.kind for p in parameters].index(inspect.Parameter.VAR_POSITIONAL):]
        params |= {p.name for p in parameters if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        var_kw = var_kw or any(p.kind is p.VAR_KEYWORD for p in parameters)
    return {"params": sorted(params), "var_kw": var_kw}


def _up_the_mro(cls, name: str) -> list:
    """Every definition of `name` in the MRO of `cls`, most derived first."""
    return [vars(c)[name] for c in cls.__mro__ if name in vars(c) and callable(vars(c)[name])]


def _tiny_model():
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    import nnsight

    words = ["hello", "world", "the", "cat", "sat", "on", "mat", "a", "dog", "ran"]
    vocab = {"<unk>": 0, "<pad>": 1, **{w: i + 2 for i, w in enumerate(words)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="<unk>", pad_token="<pad>")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=1, eos_token_id=1, pad_token_id=1)
    return nnsight.LanguageModel(GPT2LMHeadModel(config).eval(), tokenizer=tokenizer)


def _attempt(errors: List[str], what: str, run) -> None:
    """Run `run(extra)` with no extra keywords, then, on an old release whose fake-tensor scan
    torch 2.13 breaks, with the scan and validation off (`scan=False, validate=False`)."""
    failures = []
    for extra in ({}, {"scan": False, "validate": False}):
        try:
            run(extra)
            return
        except Exception as error:  # recorded: the table then lacks these roles for this release
            failures.append(f"{type(error).__name__}: {str(error)[:200]}")
    errors.append(f"{what}: " + " / ".join(failures))


def _live_objects(errors: List[str], probe: Dict[str, List[str]], inside: Dict[str, List[str]]) -> Dict[str, object]:
    """The objects users touch, taken from a real trace, generate and session of the tiny model.
    A module's output is probed inside the trace (`inside`): 0.5 puts `save` on tensors only there."""
    model = _tiny_model()
    found: Dict[str, object] = {"model": model, "envoy": model.transformer.h[0]}

    def trace(extra):
        with model.trace(**extra) as tracer:
            with tracer.invoke("hello world", **({"scan": False} if extra else {})) as invoker:
                output = model.transformer.h[0].mlp.output
                found.update(tracer=tracer, invoker=invoker, output=output)  # as the body sees them
                inside["output"] = _probed(output, probe.get("output", []))
                saved = output.save()
        found["saved"] = saved  # as the code after the trace sees it

    def generate(extra):
        with model.generate("hello world", max_new_tokens=2, **extra) as generator:
            model.lm_head.output.save()
        found["generator"] = generator

    def session(extra):
        with model.session() as session:
            with model.trace("hello", **extra):
                model.lm_head.output.save()
        found["session"] = session

    def backward_block(extra):
        with model.trace("hello world", **extra):
            loss = model.lm_head.output.sum()
            try:
                with loss.backward():
                    pass
                found["blocks"] = ["backward"]
            except (TypeError, AttributeError):  # 0.2-0.4: the proxy is no context manager
                found["blocks"] = []

    _attempt(errors, "trace", trace)
    _attempt(errors, "generate", generate)
    _attempt(errors, "session", session)
    _attempt(errors, "backward block", backward_block)
    return found


def _probed(value, candidates: List[str]) -> List[str]:
    """The candidates `value` answers through its `__getattr__` (0.4's model wrapper gives
    `generate` so; 0.5's forwards `generate` to the torch model): `value.<name>` works there.
    Also for a plain value (0.5+'s real tensor: has it a `save`, a `stop`?). Not for proxies: a
    proxy answers every name while it builds the graph."""
    if "Proxy" in type(value).__name__:
        return []
    found = []
    for name in candidates:
        try:
            if hasattr(value, name):
                found.append(name)
        except Exception:
            pass
    return found


def record(probe: Optional[Dict[str, List[str]]] = None) -> Dict[str, object]:
    """What the installed nnsight offers. `probe`: per role, names some release has, asked of the
    live object with `hasattr` (what `__getattr__` gives)."""
    import nnsight

    errors: List[str] = []
    inside: Dict[str, List[str]] = {}
    objects = _live_objects(errors, probe or {}, inside)
    blocks = objects.pop("blocks", None)  # the blocks a trace body can open (`with loss.backward():`)
    model = objects["model"]
    members = {role: _members(v) for role, v in objects.items()}
    for role, value in objects.items():
        probed = inside[role] if role in inside else _probed(value, (probe or {}).get(role, []))
        members[role] = sorted(set(members[role]) | set(probed))
    snapshot: Dict[str, object] = {
        "version": importlib.metadata.version("nnsight"),
        "modules": _modules(nnsight),
        "classes": {role: f"{type(v).__module__}.{type(v).__qualname__}" for role, v in objects.items()},
        "members": members,
        "calls": {},
        "errors": errors,
    }
    if blocks is not None:
        snapshot["blocks"] = blocks
    calls = snapshot["calls"]
    for name in ("trace", "generate", "session", "scan"):
        if hasattr(model, name):
            calls[name] = _signature(*(_up_the_mro(type(model), name) or [getattr(model, name)]))
    calls["LanguageModel"] = _signature(*_up_the_mro(nnsight.LanguageModel, "__init__"))
    if "tracer" in objects:
        calls["invoke"] = _signature(*_up_the_mro(type(objects["tracer"]), "invoke"),
                                     handed=_up_the_mro(type(objects["invoker"]), "__init__")[:1] if "invoker" in objects else ())
        calls["tracer"] = _signature(*_up_the_mro(type(objects["tracer"]), "__init__"))  # where trace(**kwargs) go
    return snapshot


# -- building and merging ------------------------------------------------------------------------

def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _key(minor: str):
    return tuple(int(p) for p in minor.split("."))


def venv_for(release: str, base_site: Path, log, venv: Optional[Path] = None) -> Path:
    """The scratch venv of a release, made once (pip only installs what is missing or different)."""
    venv = venv or SCRATCH / "venvs" / release
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "zz_base_venv.pth").write_text(str(base_site) + "\n")  # after site-packages: scratch wins
    marker = venv / "nnsight-pins.txt"  # what was installed, so an unchanged venv costs no pip run
    wanted = "\n".join([f"nnsight=={release}", *PINS[_minor(release)]]) + "\n"
    if marker.exists() and marker.read_text() == wanted:
        return python
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run(pip + ["--no-deps", f"nnsight=={release}"], check=True, stdout=log, stderr=log)
    if PINS[_minor(release)]:
        # With their dependencies: pip sees the base venv through the `.pth` line and adds only what is missing.
        subprocess.run(pip + PINS[_minor(release)], check=True, stdout=log, stderr=log)
    marker.write_text(wanted)
    return python


def probe_names(table: Dict[str, object]) -> Dict[str, List[str]]:
    """Per role, every member some release has: what `record --probe` asks each release again."""
    return {role: sorted(names) for role, names in table["members"].items()}


def record_in(python: Path, probe: Optional[Dict[str, List[str]]] = None) -> Dict[str, object]:
    command = [str(python), str(Path(__file__).resolve()), "record"]
    if probe is not None:
        path = SCRATCH / f"probe-{python.parent.parent.name}.json"
        path.write_text(json.dumps(probe))
        command += ["--probe", str(path)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=str(SCRATCH))
    if result.returncode != 0:
        raise SystemExit(f"recording with {python} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout)


def _ranges(present: List[bool], minors: List[str]) -> str:
    """"ADDED:REMOVED[,ADDED:REMOVED...]" over the recorded minors ("" at an open end)."""
    spans, start = [], None
    for i, here in enumerate(present + [False]):
        if here and start is None:
            start = i
        elif not here and start is not None:
            spans.append(f"{minors[start] if start else ''}:{minors[i] if i < len(minors) else ''}")
            start = None
    return ",".join(spans)


def merge(snapshots: Dict[str, Dict[str, object]]) -> Dict[str, object]:
    minors = sorted(snapshots, key=_key)

    def ranged(sets: Dict[str, set]) -> Dict[str, str]:
        """Ranges over the minors that recorded the thing at all (a role a release could not show is
        unknown there, not absent)."""
        having = [m for m in minors if m in sets]
        names = sorted(set().union(*sets.values())) if sets else []
        return {n: _ranges([n in sets[m] for m in having], having) for n in names}

    table: Dict[str, object] = {
        "generated_by": "scripts/gen_api_table.py",
        "releases": {m: snapshots[m]["version"] for m in minors},
        "pins": {m: PINS[m] for m in minors},
        "modules": ranged({m: set(snapshots[m]["modules"]) for m in minors}),
        "names": ranged({m: {f"{mod}.{n}" for mod, ns in snapshots[m]["modules"].items() for n in ns}
                         for m in minors}),
        "classes": {role: {m: snapshots[m]["classes"].get(role) for m in minors} for role in ROLES},
        "members": {role: ranged({m: set(snapshots[m]["members"].get(role) or ()) for m in minors
                                  if role in snapshots[m]["members"]}) for role in ROLES},
        "recorded": {role: [m for m in minors if role in snapshots[m]["members"]] for role in ROLES},
        "keywords": {},
    }
    having = [m for m in minors if "blocks" in snapshots[m]]
    table["blocks"] = {"names": ranged({m: set(snapshots[m]["blocks"]) for m in having}), "recorded": having}
    for call in CALLS:
        having = [m for m in minors if call in snapshots[m]["calls"]]
        table["keywords"][call] = {
            "params": ranged({m: set(snapshots[m]["calls"][call]["params"]) for m in having}),
            "var_kw": [m for m in having if snapshots[m]["calls"][call]["var_kw"]],
            "recorded": having,
        }
    return table


def project(table: Dict[str, object], minor: str) -> Dict[str, object]:
    """The table seen from one release: what `record` gives on it (modules, names, members, calls)."""
    from nnsight_lint.knowledge.nnsight_api import present

    names = [n for n, r in table["names"].items() if present(r, minor)]
    modules = {m: [] for m, r in table["modules"].items() if present(r, minor)}
    for full in names:
        module, _, name = full.rpartition(".")
        while module not in modules:  # a dotted module name: `nnsight.a.b` + `c`
            module, _, rest = module.rpartition(".")
            name = f"{rest}.{name}"
        modules[module].append(name)
    return {
        "modules": {m: sorted(ns) for m, ns in modules.items()},
        "members": {role: sorted(n for n, r in table["members"][role].items() if present(r, minor))
                    for role in ROLES if minor in table["recorded"][role]},
        "calls": {call: {"params": sorted(n for n, r in k["params"].items() if present(r, minor)),
                         "var_kw": minor in k["var_kw"]}
                  for call, k in table["keywords"].items() if minor in k["recorded"]},
        **({"blocks": sorted(n for n, r in table["blocks"]["names"].items() if present(r, minor))}
           if minor in table["blocks"]["recorded"] else {}),
    }


def comparable(snapshot: Dict[str, object]) -> Dict[str, object]:
    return {key: snapshot[key] for key in ("modules", "members", "calls", "blocks") if key in snapshot}


def coverage(table: Dict[str, object]) -> str:
    from nnsight_lint.knowledge.nnsight_api import present

    lines = ["minor  release  modules  names  members(" + ",".join(ROLES) + ")  keywords"]
    for minor, release in table["releases"].items():
        count = lambda d: sum(present(r, minor) for r in d.values())  # noqa: E731
        members = ",".join(str(count(table["members"][r])) if minor in table["recorded"][r] else "-" for r in ROLES)
        keywords = sum(count(k["params"]) for k in table["keywords"].values())
        lines.append(f"{minor:6} {release:8} {count(table['modules']):7} {count(table['names']):6}  {members}  {keywords}")
    tables = [table["modules"], table["names"], *table["members"].values(),
              *(k["params"] for k in table["keywords"].values())]
    changed = sum(r != ":" for d in tables for r in d.values())
    lines.append(f"{changed} names were added or removed between {min(table['releases'], key=_key)} and "
                 f"{max(table['releases'], key=_key)}")
    return "\n".join(lines)


def write(table: Dict[str, object]) -> None:
    TABLE.write_text(json.dumps(table, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", choices=["build", "record", "venv"], default="build",
                        help="venv RELEASE --path DIR: make (or update) one release's venv at DIR, print its python")
    parser.add_argument("release", nargs="?", help="venv: the nnsight release, e.g. 0.4.11")
    parser.add_argument("--path", help="venv: where to make it")
    parser.add_argument("--check", action="store_true", help="compare with the bundled table, write nothing")
    parser.add_argument("--base", default=str(ROOT / ".venv"), help="the venv whose torch the scratch venvs reuse")
    parser.add_argument("--probe", metavar="JSON", help="record: per role, names to ask with hasattr")
    args = parser.parse_args(argv)
    if args.mode == "record":
        probe = json.loads(Path(args.probe).read_text()) if args.probe else None
        out, sys.stdout = sys.stdout, sys.stderr  # what a release prints while probed is not the record
        try:
            snapshot = record(probe)
        finally:
            sys.stdout = out
        json.dump(snapshot, sys.stdout, sort_keys=True)
        return 0
    sys.path.insert(0, str(ROOT))
    base_site = next((Path(args.base) / "lib").glob("python3*/site-packages"))
    if args.mode == "venv":
        python = venv_for(args.release, base_site, sys.stderr, Path(args.path).resolve())
        print(python)
        return 0
    (SCRATCH / "venvs").mkdir(parents=True, exist_ok=True)
    snapshots = {}
    with open(SCRATCH / "pip.log", "a") as log:
        pythons = {minor: venv_for(release, base_site, log) for minor, release in RELEASES.items()}
    with ThreadPoolExecutor(2) as pool:
        snapshots = dict(zip(pythons, pool.map(record_in, pythons.values())))
        # Second pass: ask every release for the members any release has (what `__getattr__` gives).
        probe = probe_names(merge(snapshots))
        snapshots = dict(zip(pythons, pool.map(lambda python: record_in(python, probe), pythons.values())))
    for minor, release in RELEASES.items():
        assert snapshots[minor]["version"] == release, snapshots[minor]["version"]
        for error in snapshots[minor]["errors"]:
            print(f"{release}: {error}", file=sys.stderr)
    table = merge(snapshots)
    print(coverage(table))
    if args.check:
        bundled = json.loads(TABLE.read_text(encoding="utf-8"))
        differ = [m for m in snapshots if project(bundled, m) != comparable(snapshots[m])]
        if differ or bundled != table:
            print(f"the bundled table differs from the releases: {differ or 'metadata'}", file=sys.stderr)
            return 1
        print("the bundled table equals what the releases offer")
        return 0
    write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
