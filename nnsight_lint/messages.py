"""Every text a user reads from nnsight-lint, in one place.

The linter, the docs command and the runtime hook all build their words from here, so a finding
and a run-time error about the same code say the same thing.
"""
from __future__ import annotations

DOCS_URL = "https://github.com/nnsight-lint/nnsight-lint/blob/main/docs/rules/{code}.md"

NNL000_SYNTAX = "invalid syntax: {detail}"
NNL000_NOTEBOOK = "invalid notebook: {name} {detail}"

NNL001_TITLE = "backward frees the graph a later backward in the same trace needs"


def nnl001(call: str, later_line: int, in_loop: bool = False) -> str:
    """The NNL001 headline: `call` frees the shared graph that the backward on `later_line` needs.

    `call` is the callee as written for the user, e.g. "backward()" or "torch.autograd.grad()".
    """
    later = (
        f"this call runs again (line {later_line}, in a loop)"
        if in_loop
        else f"the backward on line {later_line} runs later"
    )
    return (
        f"`{call}` frees the autograd graph that every invoke of this trace shares, "
        f"but {later} and needs it; pass `retain_graph=True`"
    )


# The run-time explanation appended under the headline by `nnsight_lint.runtime`.
NNL001_RUNTIME_CAUSE = (
    "Every `tracer.invoke(...)` of one trace is batched into a single forward pass, so all invokes "
    "share ONE autograd graph. An earlier backward in this trace{freed_at} ran without "
    "`retain_graph=True` and freed it."
)
NNL001_RUNTIME_ALREADY_RETAINING = (
    "This call already passes `retain_graph=True`; the EARLIER backward{freed_at} did not. "
    "Pass `retain_graph=True` there."
)
NNL001_RUNTIME_FIX = """\
Fix: pass `retain_graph=True` to every backward of the trace except the one that runs last:

    with model.trace() as tracer:
        with tracer.invoke(prompt_a):
            model.lm_head.output.sum().backward(retain_graph=True)
        with tracer.invoke(prompt_b):
            model.lm_head.output.sum().backward()"""

# The gradient family NNL002-NNL007.
NNL002_TITLE = "`.grad` of an activation read outside `with loss.backward():`"
NNL003_TITLE = "gradients read in forward order inside one backward block"
NNL004_TITLE = "a module's `.output`/`.input` read inside `with loss.backward():`"
NNL005_TITLE = "a backward where the forward builds no graph (generate, no_grad, inference_mode)"
NNL006_TITLE = "`no_grad`/`inference_mode` inside a trace around a module access"
NNL007_TITLE = "`.grad` of a module instead of a tensor"


def nnl002(target: "tuple[int, int]") -> str:
    """`.grad` read outside a backward block; what it gives depends on the nnsight targeted."""
    gives = (
        "leaves the saved name undefined on nnsight 0.5-0.7 (NameError)"
        if target < (0, 8)
        else "gives None for an activation"
    )
    return (
        f"`.grad` outside `with loss.backward():` is plain torch and {gives}; read it inside the "
        "backward block (or call `retain_grad()` first)"
    )


def nnl003(later: str, first: str, first_line: int) -> str:
    return (
        f"`{later}.grad` is requested after `{first}.grad` (line {first_line}), but gradients arrive "
        f"in reverse forward order: `{later}` comes later in the forward, so its gradient has already "
        f"gone by (OutOfOrderError); read `{later}.grad` first"
    )


def nnl003_loop(name: str) -> str:
    return (
        f"`{name}.grad` is read in forward order in a loop, but gradients arrive in reverse forward "
        "order: the second read asks for a gradient that has already gone by (OutOfOrderError); "
        "loop in reverse (`reversed(...)`)"
    )


def nnl004(access: str) -> str:
    return (
        f"`{access}` is read inside `with loss.backward():`, where only `.grad` can be read: the "
        f"forward has already run past it (OutOfOrderError); capture `x = {access}` before the "
        "backward block"
    )


def nnl005(call: str, where: str) -> str:
    """`where`: "generate" or the grad mode ("no_grad", "inference_mode") the trace runs under."""
    if where == "generate":
        return (
            f"`{call}` inside `model.generate(...)` cannot produce gradients: generate runs the "
            "forward under `torch.no_grad()`, so there is no graph; generate first, then compute "
            "gradients in a separate `with model.trace(...)`"
        )
    return (
        f"`{call}` in a trace that runs under `torch.{where}()` cannot produce gradients: the "
        f"forward builds no graph; open the trace outside the `{where}` block (or inside "
        "`torch.enable_grad()`)"
    )


def nnl006(mode: str, access: str, later_line: "int | None") -> str:
    """`later_line`: the backward or `.grad` that needs the gradients (None for inference_mode)."""
    leak = (
        f"`torch.{mode}()` around `{access}` inside a trace also covers the model's forward up to "
        "that module (interventions run on the model's thread)"
    )
    if mode == "inference_mode":
        return (
            f"{leak}: the rest of the forward cannot use its inference tensors (RuntimeError); "
            "take it out of the trace"
        )
    return (
        f"{leak}, so the gradient that line {later_line} needs is cut there; drop the `no_grad` "
        "(use `.detach()` on the value if it must not carry gradients)"
    )


def nnl007(module: str) -> str:
    return (
        f"`{module}` is a module, and modules have no `.grad` (AttributeError); read `.grad` on a "
        f"tensor: its output captured before the backward block (`x = {module}.output`) or a "
        f"parameter (`{module}.weight.grad`)"
    )


EXPLAIN_POINTER = "Run `nnsight-lint explain {code}` for the full explanation."
TORCH_ORIGINAL = "torch said: {text}"

LSP_MISSING_EXTRA = "the language server needs pygls; install it with `pip install 'nnsight-lint[lsp]'`"
RUNTIME_MISSING_EXTRA = (
    "nnsight_lint.runtime needs nnsight; install it with `pip install 'nnsight-lint[runtime]'`"
)

# Files that cannot be read, walked or written safely (docs/reliability.md).
NOT_REGULAR_FILE = "cannot read: {kind}, not a regular file"
SYMLINK_LOOP = "a symbolic link loop ({detail})"
WALK_SKIPPED = "{why}; skipped"
# The run's summary (stderr, every output format).
HIDDEN_DEMOS = "{count} finding{s} in deliberate error demos not shown: --report-deliberate-errors"
UNPINNED_LEGACY = (
    "note: {count} finding{s} of the old nnsight API (NNL3xx) in {root}, which does not pin nnsight: this code is "
    "written for nnsight <= {legacy}, and a fresh install gets nnsight {target}, where it fails; pin the nnsight it "
    "was written for (`nnsight<{next}`, or set target-version) or migrate the code"
)
CHANGED_WHILE_FIXING = "the file changed on disk while it was being fixed; it was left as it now is"
DELETED_WHILE_FIXING = "the file was deleted while it was being fixed; it was not re-created"
READ_ONLY = "cannot fix: the file is read-only for this user (mode {mode}); the file was left unchanged"
OWNER_NOT_KEPT = "fixed, but its {what} could not be kept: it is now {now} (was {was})"
WORKER_CRASHED = "internal error: the parser crashed on this file (its worker process {how}); the other files were checked"

# The runtime re-telling of an error a rule predicts (`nnsight_lint.doors.retelling`).
RETOLD_AT = "nnsight-lint {code} ({name}) at {where} explains this error."
ORIGINAL_ERROR = "The original error: {text}"
ORIGINAL_WARNING = "The original warning: {text}"
LSP_AFTER_SHUTDOWN = "the server has been asked to shut down; it answers no more requests ({method})"
# Torch's words in the warnings a rule re-tells at run time (a rule's `WARNS` names them): a
# warning holding none of them is shown untouched, without linting anything.
TORCH_NON_LEAF_GRAD = "is not a leaf Tensor is being accessed"
RETOLD_WARNINGS = (TORCH_NON_LEAF_GRAD,)


def grad_order_runtime(name, line: int) -> str:
    """An out-of-order `.grad` read the linter could not decide statically (NNL003's situation)."""
    tensor = f"`{name}.grad`" if name else "this `.grad`"
    return (
        f"{tensor} (line {line}) is read after the `.grad` of a tensor captured earlier in the forward, "
        f"but inside one backward block gradients arrive in REVERSE forward order: read {tensor} first"
    )


# -- NNL1xx: values across trace and invoke boundaries; NNL3xx: legacy API ---------------------

NNL101_TITLE = "a value bound inside a trace is read after it without `.save()`"
NNL102_TITLE = "a value bound inside an invoke is read by the trace body, before the invoke runs"
NNL103_TITLE = "a later invoke reads an earlier invoke's value before that value exists"
NNL104_TITLE = "a saved activation is edited in place later in the trace, and the saved value shows it"
NNL105_TITLE = "`.save()` / `nnsight.save()` where no trace is running"
NNL301_TITLE = "nnsight API that the targeted nnsight version removed or changed"


def nnl101(name: str, read_line: int, had_old_value: bool) -> str:
    after = (
        "keeps the value it had before the trace" if had_old_value else "is undefined (NameError)"
    )
    return (
        f"`{name}` is assigned inside the trace but not saved, so after the `with` block (read on "
        f"line {read_line}) it {after}; only saved values leave a trace: add `.save()`"
    )


def nnl102(name: str, invoke_line: int, helper_return: bool) -> str:
    where = "returned by the helper that opens it" if helper_return else "read in the trace body"
    return (
        f"`{name}` is bound inside the invoke on line {invoke_line}, and invoke bodies run when the "
        f"trace exits, after the trace body: here it is {where} before the invoke has run "
        "(NameError, or its old value); read it after the trace, or inside a later invoke"
    )


def nnl103(name: str, made_line: int, why: str) -> str:
    return (
        f"`{name}` is made by an earlier invoke (line {made_line}), but this invoke reads it {why}, "
        f"before that invoke has bound it (NameError); first wait in this invoke for the module that "
        f"makes it, or a later one (`x = model.<module>.output`, then use `{name}`), or call a "
        "`tracer.barrier(2)` in both invokes"
    )


NNL103_BEFORE_MODULE = "before waiting on any module"


def nnl103_later_module(made_at: str, reached: str) -> str:
    return f"after `{reached}`, while the earlier invoke makes it at `{made_at}`, later in the forward"


def nnl104(edit_line: int) -> str:
    return (
        f"`.save()` keeps a reference, not a copy: the in-place edit on line {edit_line} changes the same "
        "storage, so the saved value shows the edit; save `.clone()` to keep the value as it was"
    )


def nnl105(raises: str) -> str:
    return (
        "`.save()` marks a value to leave the enclosing trace, but no trace is running here "
        f"({raises}); move the save into the `with model.trace(...)` block"
    )


NNL301_VALUE = (
    "`.value` is the nnsight <= 0.3 proxy API: since 0.4 a saved name is the value itself "
    "(AttributeError: no attribute 'value'); drop `.value`"
)
NNL301_VALUE_CONTAINER = (
    "`.value` is the nnsight <= 0.4 proxy API: since 0.5 a saved value is the tensor itself "
    "(AttributeError: no attribute 'value'); drop `.value`"
)
NNL301_NEXT = (
    "`.next()` was removed in nnsight 0.8 (AttributeError); walk generation steps with "
    "`for step in tracer.iter[...]:`"
)
NNL301_APPLY = (
    "`tracer.apply(fn, ...)` was removed in nnsight 0.5 (AttributeError); the trace body is real "
    "Python: call `fn(...)` directly"
)
NNL301_FORWARD = (
    "`model.forward(inference=...)` is the nnsight 0.1 runner; since 0.2 write "
    "`with model.trace(...) as tracer:` (with `tracer.invoke(...)` per input)"
)


def nnl301_module_function(function: str, replacement: str) -> str:
    return (
        f"`{function}()` was removed from nnsight (AttributeError: module 'nnsight' has no attribute); "
        f"{replacement}"
    )


NNL302_TITLE = "nnsight API (module, name, member or keyword) that the targeted nnsight release does not have"
_NNL302_RAISES = {"module": "ModuleNotFoundError", "name": "ImportError / AttributeError",
                  "member": "AttributeError", "keyword": "TypeError, or the model ignores it"}


def nnl302(what: str, kind: str, removed: str, added: str, release: str, instead: str) -> str:
    """`what` is gone since `removed`, or arrives only in `added`; the target's release is `release`."""
    if removed:
        when = f"{what} is gone since nnsight {removed} (the target is nnsight {release}: {_NNL302_RAISES[kind]})"
    else:
        when = (f"{what} arrived in nnsight {added}, and the project targets nnsight {release}, which has no "
                f"such {'module' if kind == 'module' else 'keyword' if kind == 'keyword' else 'attribute'} "
                f"({_NNL302_RAISES[kind]})")
    return f"{when}; {instead}" if instead else when


def nnl302_not_there(what: str, release: str, instead: str) -> str:
    return f"{what} is no nnsight API in any release (nnsight {release}: AttributeError); {instead}"


NNL302_NEWER = "write it the targeted release's way, or raise the project's nnsight requirement"
NNL302_OLDER = "see `nnsight-lint explain NNL302` for what replaced it"


# The trace-shape family NNL201-NNL207.
NNL201_TITLE = "code after an open `tracer.iter[:]` loop, which never runs"
NNL202_TITLE = "modules read against the order the forward reaches them"
NNL203_TITLE = "`tracer.invoke` inside an invoke, an iter loop, or a trace that already has an input"
NNL204_TITLE = "a trace without input and without `tracer.invoke`"
NNL205_TITLE = "a trace of the same model opened inside its running trace"
NNL206_TITLE = "a traced `with` laid out so nnsight cannot find its block"
NNL207_TITLE = "item assignment into an attention module's tuple output"

NNL201_MOVE = "move it into a separate `with tracer.invoke():` after this one"


def nnl201_open(loop: str) -> str:
    return (
        f"code after an open `{loop}` loop never runs: nnsight 0.8 ends the loop by unwinding the "
        f"block at the step past the last one (NameError on what it binds); {NNL201_MOVE}"
    )


def nnl201_block(loop: str) -> str:
    return (
        f"after an open `with {loop}:` block, this request waits for a step that never comes, and "
        f"it and everything after it are skipped without a warning; {NNL201_MOVE}"
    )


def nnl201_bounded(loop: str) -> str:
    return (
        f"after the bounded `{loop}` loop this module read means generation step 0 again, which has "
        "already run (OutOfOrderError); read it inside a `tracer.iter[...]` loop, or in a separate "
        "`with tracer.invoke():` after this one"
    )


def nnl202(later: str, earlier: str, earlier_line: int) -> str:
    return (
        f"`{later}` is read after `{earlier}` (line {earlier_line}), but the forward reaches it "
        "first: by then the model has run past it (OutOfOrderError); read modules in forward order "
        "within one invoke"
    )


NNL203_WHERE = {
    "invoke": "inside another invoke's body",
    "iter": "inside a `tracer.iter` loop",
    "input": "in a trace that already got an input (its whole body is one invoke)",
}


def nnl203(why: str) -> str:
    return (
        f"this `tracer.invoke(...)` is opened {NNL203_WHERE[why]}, which runs while the model is "
        "running (ValueError: Cannot invoke while the model is already running); open invokes side "
        "by side in the body of a trace without input"
    )


def nnl204(opener: str) -> str:
    return (
        f"`{opener}(...)` gets no input and its body opens no `tracer.invoke(...)`: nnsight runs such "
        "a body at once to collect invokes, outside the model run, so its first module read fails "
        "(\"outside of interleaving\"); pass the input to the trace or open `with tracer.invoke(input):`"
    )


def nnl205(model: str, outer_line: int) -> str:
    return (
        f"a trace of `{model}` is opened inside its trace on line {outer_line}, which is still "
        "running (ValueError: cyclic parent chain, or an unrelated AttributeError); close the first "
        f"trace before opening the next (`{model}.session()` groups traces)"
    )


NNL206_INLINE = (
    "the body of a traced `with` must start on its own line: nnsight intercepts the body at the "
    "start of its first line (ValueError); put the body on the next line, indented"
)
NNL206_BACKWARD_LINE = (
    "`.backward()` of this `with` is called on a later line than the `with` (and than its item's "
    "first line): nnsight looks for the block on the line of the call, finds none, runs a plain "
    "backward and `with` gets None (TypeError: 'NoneType' object does not support the context "
    "manager protocol); compute the loss on a line above and write `with loss.backward():`"
)
NNL206_TRY = (
    "a traced `with` block cannot start with `try:`: nnsight intercepts the body at its first line "
    "and cannot get out of a `try` there (ValueError); put a statement above the `try`, or move the "
    "`try` outside the block"
)


def nnl207(access: str) -> str:
    return (
        f"`{access}` is the tuple `(attn_output, attn_weights)` in Hugging Face transformers, and a "
        f"tuple takes no item assignment (TypeError); write into the tensor in place "
        f"(`{access}[0][:] = ...`) or assign a rebuilt tuple to `{access}`"
    )


# The model family NNL401-NNL404: what the model a trace runs on has (its schema).
NNL401_TITLE = "a module path the model does not have"
NNL402_TITLE = "a layer index past the model's layer count"
NNL403_TITLE = "a module's tensor output indexed as if it were a tuple"
NNL404_TITLE = "a module's tuple output used as if it were a tensor"


def nnl401(written: str, resolved, model: str, parent: str, missing: str, children, suggestion,
           raises: str = " (AttributeError when the trace runs)", transformers: str = "") -> str:
    in_transformers = f" in {transformers}" if transformers else ""
    listed = ", ".join(f"`{c}`" for c in children[:8]) + (", ..." if len(children) > 8 else "")
    where = f"under `{parent}`" if parent else "at its top"
    text = f"`{written}`" + (f" (`{resolved}`)" if resolved else "")
    text += f": this {model}{in_transformers} has no module `{missing.lstrip('.')}` {where}"
    text += f" (its children: {listed})" if children else " (it has no children)"
    if suggestion:
        text += f"; {model.split(' ')[0]} calls it `{suggestion}`"
    return text + raises


def nnl402(written: str, model: str, index: int, layers: str, count: int, how: str = "") -> str:
    said = f" ({how})" if how else ""
    last = count - 1
    return (f"`{written}`: index {index}{said} is past the end of `{layers}`, which this {model} has {count} of "
            f"(0..{last}, or -{count}..-1); nnsight raises AttributeError naming the index")


def nnl403(written: str, model: str, access: str, kind: str, dims, index: int, transformers: str, since) -> str:
    shape = "(" + ", ".join(dims) + ")"
    what = "output" if kind == "output" else "first positional input"
    since_words = f", since transformers {since}" if since else ""
    return (f"`{written}` selects {dims[0]} row {index}, silently: the module's {what} `{access}` is the tensor "
            f"{shape} itself, not a tuple, for this {model} in {transformers}{since_words}; use `{access}` whole")


def nnl403_unpack(access: str, model: str, dims, transformers: str, since) -> str:
    shape = "(" + ", ".join(dims) + ")"
    since_words = f", since transformers {since}" if since else ""
    return (f"unpacking `{access}` splits its {dims[0]} dimension: it is the tensor {shape} itself, not a tuple, "
            f"for this {model} in {transformers}{since_words}; bind it whole")


def nnl404(written: str, model: str, use: str, transformers: str, items: int) -> str:
    return (f"`{written}` is a tuple of {items}, not a tensor, for this {model} in {transformers}: {use}; "
            f"take its first item (`{written}[0]`), the hidden states")


NNL404_USES = {
    "tensor-index": "tensor indexing raises `TypeError: tuple indices must be integers or slices`",
    "tensor-index-store": "a slice assignment raises `TypeError: 'tuple' object does not support item assignment`",
    "item-store": "item assignment raises `TypeError: 'tuple' object does not support item assignment`",
    "attribute": "`.{name}` raises AttributeError on a tuple",
    "arith": "arithmetic on a tuple raises TypeError, or silently repeats it (`* n`)",
    "torch-call": "`{name}()` fails on a tuple (TypeError or AttributeError)",
}
