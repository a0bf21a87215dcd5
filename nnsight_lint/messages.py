"""Every text a user reads from nnsight-lint, in one place.

The linter, the docs command and the runtime hook all build their words from here, so a finding
and a run-time error about the same code say the same thing.

A finding's message is a `Message`: a str that is SHORT, at ruff's length (what is wrong, in
nnsight's words, with the code and line it is about; about 60-90 characters plus the code it
quotes; no trailing period), with its `detail`: the story in a sentence or two (why it fails or
gives a wrong value, the error it raises, what to write instead). The concise output, JSON, SARIF,
GitHub annotations, flake8 and the LSP print the message; `--output-format full`, the runtime
hook and `explain` tell the story. A new rule's message follows the same shape (rules/README.md).
"""
from __future__ import annotations


class Message(str):
    """A finding's short message (the str itself) and its `detail` (the story, shown by
    `--output-format full` and the runtime hook)."""

    detail: str

    def __new__(cls, text: str, detail: str = "") -> "Message":
        self = super().__new__(cls, text)
        self.detail = detail
        return self

    def __reduce__(self):
        return Message, (str(self), self.detail)


DOCS_URL = "https://github.com/nnsight-lint/nnsight-lint/blob/main/docs/rules/{code}.md"

NNL000_SYNTAX = "invalid syntax: {detail}"


def nnl000_syntax(detail: str) -> str:
    """NNL000's message for a parser's `detail`, said once: CPython's own "invalid syntax" (or
    "invalid syntax. Perhaps you forgot a comma?") is not prefixed again."""
    return detail if detail.startswith("invalid syntax") else NNL000_SYNTAX.format(detail=detail)
NNL000_NOTEBOOK = "invalid notebook: {name} {detail}"

NNL001_TITLE = "backward frees the graph a later backward in the same trace needs"


def nnl001(call: str, later_line: int, in_loop: bool = False) -> Message:
    """The NNL001 headline: `call` frees the shared graph that the backward on `later_line` needs.

    `call` is the callee as written for the user, e.g. "backward()" or "torch.autograd.grad()".
    """
    said = (
        f"`{call}` runs again in a loop and frees the graph its next run needs"
        if in_loop
        else f"`{call}` frees the graph the backward on line {later_line} still needs"
    )
    return Message(
        f"{said}; pass `retain_graph=True`",
        "Every invoke of a trace runs in one batched forward, so they share one autograd graph; the "
        "first backward without `retain_graph=True` frees it, and the next one fails (RuntimeError: "
        "Trying to backward through the graph a second time).",
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


def nnl002(target: "tuple[int, int]") -> Message:
    """`.grad` read outside a backward block; what it gives depends on the nnsight targeted."""
    gives = "an undefined name (NameError) on nnsight 0.5-0.7" if target < (0, 8) else "None for an activation"
    return Message(
        f"`.grad` outside `with loss.backward():` gives {gives}",
        "Outside a backward block `.grad` is plain torch, and torch keeps no gradient of a non-leaf "
        "tensor; read it inside the backward block (or call `retain_grad()` first).",
    )


def nnl003(later: str, first: str, first_line: int) -> Message:
    return Message(
        f"`{later}.grad` is read after `{first}.grad` (line {first_line}): it has already gone by",
        f"Gradients arrive in reverse forward order, and `{later}` comes later in the forward than "
        f"`{first}`, so its gradient arrived first (OutOfOrderError); read `{later}.grad` first.",
    )


def nnl003_loop(name: str) -> Message:
    return Message(
        f"`{name}.grad` is read in forward order in a loop: the second read has already gone by",
        "Gradients arrive in reverse forward order (OutOfOrderError); loop in reverse (`reversed(...)`).",
    )


def nnl004(access: str) -> Message:
    return Message(
        f"`{access}` is read inside `with loss.backward():`, after the forward has passed it",
        "Only `.grad` can be read in a backward block: the forward has already run (OutOfOrderError); "
        f"capture `x = {access}` before the backward block.",
    )


def nnl005(call: str, where: str) -> Message:
    """`where`: "generate" or the grad mode ("no_grad", "inference_mode") the trace runs under."""
    if where == "generate":
        return Message(
            f"`{call}` inside `model.generate(...)`: generate builds no graph to backward through",
            "generate runs the forward under `torch.no_grad()`; generate first, then compute gradients "
            "in a separate `with model.trace(...)`.",
        )
    return Message(
        f"`{call}` in a trace under `torch.{where}()`: the forward builds no graph",
        f"A backward needs the graph the forward records; open the trace outside the `{where}` block "
        "(or inside `torch.enable_grad()`).",
    )


def nnl006(mode: str, access: str, later_line: "int | None") -> Message:
    """`later_line`: the backward or `.grad` that needs the gradients (None for inference_mode)."""
    leak = (
        f"`torch.{mode}()` inside a trace also covers the model's forward up to `{access}` "
        "(interventions run on the model's thread)"
    )
    if mode == "inference_mode":
        return Message(
            f"`torch.{mode}()` around `{access}` turns the forward's tensors into inference tensors",
            f"{leak}: the rest of the forward cannot use its inference tensors (RuntimeError); take it "
            "out of the trace.",
        )
    return Message(
        f"`torch.{mode}()` around `{access}` cuts the gradient line {later_line} needs",
        f"{leak}, so no gradient flows through that part; drop the `no_grad` (use `.detach()` on the "
        "value if it must not carry gradients).",
    )


def nnl007(module: str) -> Message:
    return Message(
        f"`{module}` is a module, and modules have no `.grad`",
        "Reading it raises AttributeError; read `.grad` on a tensor: its output captured before the "
        f"backward block (`x = {module}.output`) or a parameter (`{module}.weight.grad`).",
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
RETOLD_AT = "nnsight-lint {code} ({name}) at {where} explains this {what}."
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


def nnl101(name: str, read_line: int, had_old_value: bool) -> Message:
    after = "keeps its old value" if had_old_value else "is undefined (NameError)"
    return Message(
        f"`{name}` is not saved, so after the trace (line {read_line}) it {after}",
        "Only saved values leave a trace; add `.save()`.",
    )


def nnl101_constant(name: str, read_line: int, had_old_value: bool) -> Message:
    after = "keeps the value it had before the trace" if had_old_value else "is undefined (NameError)"
    return Message(
        f"`{name}` is a constant bound in the trace: after it (line {read_line}) it {after}",
        "Only saved values leave a trace, and a constant has no `.save()`; bind it before the trace.",
    )


def nnl102(name: str, invoke_line: int, helper_return: bool) -> Message:
    where = "returned by its helper" if helper_return else "read in the trace body"
    return Message(
        f"`{name}` is bound in the invoke on line {invoke_line} but {where} before the invoke runs",
        "Invoke bodies run when the trace exits, after the trace body (NameError, or its old value); "
        "read it after the trace, or inside a later invoke.",
    )


def nnl103(name: str, made_line: int, why: str) -> Message:
    return Message(
        f"`{name}` is read {why.replace('{line}', str(made_line))}",
        "The invokes of a trace run together, module by module, so an earlier invoke's value exists "
        f"only once it reached the module that makes it (NameError); first wait in this invoke for "
        f"that module or a later one (`x = model.<module>.output`, then use `{name}`), or call a "
        "`tracer.barrier(2)` in both invokes.",
    )


# Where the later invoke reads the name; `{line}` becomes the earlier invoke's line.
NNL103_BEFORE_MODULE = "at the start of this invoke, before the invoke on line {line} has made it"


def nnl103_later_module(made_at: str, reached: str) -> str:
    return f"at `{reached}`, before the invoke on line {{line}} makes it at `{made_at}`"


def nnl104(edit_line: int) -> Message:
    return Message(
        f"the saved value shows the in-place edit on line {edit_line}: `.save()` keeps a reference",
        "The edit changes the storage the saved value shares; save `.clone()` to keep the value as it was.",
    )


def nnl105(raises: str) -> Message:
    return Message(
        f"`.save()` where no trace is running ({raises})",
        "`.save()` marks a value to leave the enclosing trace; move it into the `with model.trace(...)` block.",
    )


# One short message for `.value` wherever it is reported; the release that removed it differs.
NNL301_VALUE_SHORT = "`.value` is the removed proxy API: a saved value is the value itself; drop `.value`"
NNL301_VALUE = Message(
    NNL301_VALUE_SHORT,
    "Since nnsight 0.4 a name saved in a trace is the value (AttributeError: no attribute 'value').",
)
NNL301_VALUE_CONTAINER = Message(
    NNL301_VALUE_SHORT,
    "Since nnsight 0.5 a saved value kept in a dict or list is the tensor itself (AttributeError: no "
    "attribute 'value').",
)
NNL301_NEXT = Message(
    "`.next()` was removed in nnsight 0.8",
    "It raises AttributeError; walk generation steps with `for step in tracer.iter[...]:`, the loop's body "
    "being one step without `.next()` (what only a later step reads goes under `if step == 1:`).",
)
NNL301_NEXT_LOOP = Message(
    "`.next()` ending a `range` loop over generation steps was removed in nnsight 0.8",
    "It raises AttributeError; loop over the steps with `for i in tracer.iter[:N]:` and drop the `.next()` "
    "(`--fix` does it, unsafe: the loop now runs while the model generates).",
)
NNL301_NEXT_LOOP_UNNAMED = Message(
    NNL301_NEXT_LOOP,
    "It raises AttributeError; name the generate (`with model.generate(...) as tracer:`), loop over the "
    "steps with `for i in tracer.iter[:N]:` and drop the `.next()`.",
)
NNL301_APPLY = Message(
    "`tracer.apply(fn, ...)` was removed in nnsight 0.5",
    "It raises AttributeError; the trace body is real Python: call `fn(...)` directly.",
)
NNL301_FORWARD = Message(
    "`model.forward(inference=...)` is the nnsight 0.1 runner",
    "Since 0.2 write `with model.trace(...) as tracer:` (with `tracer.invoke(...)` per input).",
)


def nnl301_module_function(function: str, replacement: str) -> Message:
    return Message(
        f"`{function}()` was removed from nnsight",
        f"It raises AttributeError: module 'nnsight' has no attribute; {replacement}.",
    )


NNL302_TITLE = "nnsight API (module, name, member or keyword) that the targeted nnsight release does not have"
_NNL302_RAISES = {"module": "ModuleNotFoundError", "name": "ImportError / AttributeError",
                  "member": "AttributeError", "keyword": "TypeError, or the model ignores it",
                  "block": "TypeError: the proxy is no context manager"}


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def nnl302(what: str, kind: str, removed: str, added: str, release: str, instead: str) -> Message:
    """`what` is gone since `removed`, or arrives only in `added`; the target's release is `release`."""
    if removed:
        short, story = f"{what} is gone since nnsight {removed}; the target is nnsight {release}", \
            f"It raises {_NNL302_RAISES[kind]}"
    else:
        such = kind if kind in ("module", "keyword", "block") else "attribute"
        short, story = f"{what} arrived in nnsight {added}; the target is nnsight {release}", \
            f"nnsight {release} has no such {such} ({_NNL302_RAISES[kind]})"
    return Message(short, _sentence(f"{story}; {instead}" if instead else story))


def nnl302_not_there(what: str, release: str, instead: str) -> Message:
    return Message(f"{what} is no nnsight API in any release",
                   _sentence(f"nnsight {release} raises AttributeError" + (f"; {instead}" if instead else "")))


NNL302_NEWER = "write it the targeted release's way, or raise the project's nnsight requirement"
NNL302_BACKWARD_BLOCK = ("save the `.grad` you need first, then call `loss.backward()` plainly in the trace, or "
                         "raise the project's nnsight requirement")
NNL302_OLDER = "see `nnsight-lint explain NNL302` for what replaced it"


# The trace-shape family NNL201-NNL208.
NNL201_TITLE = "code after an open `tracer.iter[:]` loop, which never runs"
NNL202_TITLE = "modules read against the order the forward reaches them"
NNL203_TITLE = "`tracer.invoke` inside an invoke, an iter loop, or a trace that already has an input"
NNL204_TITLE = "a trace without input and without `tracer.invoke`"
NNL205_TITLE = "a trace of the same model opened inside its running trace"
NNL206_TITLE = "a traced `with` laid out so nnsight cannot find its block"
NNL207_TITLE = "item assignment into an attention module's tuple output"
NNL208_TITLE = "a trace written in the body of a `%%time` / `%%timeit` / `%%prun` cell"

NNL201_MOVE = "move it into a separate `with tracer.invoke():` after this one"


def nnl201_open(loop: str) -> Message:
    return Message(
        f"code after an open `{loop}` loop never runs",
        "nnsight 0.8 ends the loop by unwinding the block at the step past the last one (NameError on "
        f"what it binds); {NNL201_MOVE}.",
    )


def nnl201_block(loop: str) -> Message:
    return Message(
        f"after an open `with {loop}:` block, this request and all after it are skipped",
        f"It waits for a step that never comes, and nnsight drops it without a warning; {NNL201_MOVE}.",
    )


def nnl201_bounded(loop: str) -> Message:
    return Message(
        f"after the bounded `{loop}` loop this module read means step 0, which has already run",
        "The read fails (OutOfOrderError); read it inside a `tracer.iter[...]` loop, or in a separate "
        "`with tracer.invoke():` after this one.",
    )


def nnl202(later: str, earlier: str, earlier_line: int) -> Message:
    return Message(
        f"`{later}` is read after `{earlier}` (line {earlier_line}), but the forward reaches it first",
        "By then the model has run past it (OutOfOrderError); read modules in forward order within one invoke.",
    )


NNL203_WHERE = {
    "invoke": "inside another invoke's body",
    "iter": "inside a `tracer.iter` loop",
    "input": "in a trace that already got an input",
}


def nnl203(why: str) -> Message:
    return Message(
        f"`tracer.invoke(...)` {NNL203_WHERE[why]} runs while the model is running",
        "It raises ValueError: Cannot invoke while the model is already running (a trace with an input "
        "is one invoke); open invokes side by side in the body of a trace without input.",
    )


def nnl204(opener: str) -> Message:
    return Message(
        f"`{opener}(...)` has no input and no `tracer.invoke(...)`: its body runs outside the model run",
        "nnsight runs such a body at once to collect invokes, so its first module read fails (\"outside "
        "of interleaving\"); pass the input to the trace or open `with tracer.invoke(input):`.",
    )


def nnl204_same_line(opener: str, invoke: str) -> Message:
    return Message(
        f"`{invoke}(...)` is opened on the same `with` line as `{opener}(...)`",
        "nnsight enters it before the trace has started collecting invokes, so it fails (AttributeError: "
        f"'NoneType' object has no attribute 'add'); open `with {invoke}(...):` on its own line inside the trace body.",
    )


def nnl205(model: str, outer_line: int) -> Message:
    return Message(
        f"a trace of `{model}` is opened inside its running trace (line {outer_line})",
        "The model cannot run again inside its own run (ValueError: cyclic parent chain, or an unrelated "
        f"AttributeError); close the first trace before opening the next (`{model}.session()` groups traces).",
    )


NNL206_INLINE = Message(
    "the body of a traced `with` must start on its own line",
    "nnsight intercepts the body at the start of its first line (ValueError); put the body on the next "
    "line, indented.",
)
NNL206_BACKWARD_LINE = Message(
    "`.backward()` of this `with` is called on a later line than the `with`",
    "nnsight looks for the block on the line of the call, finds none, runs a plain backward and `with` "
    "gets None (TypeError: 'NoneType' object does not support the context manager protocol); compute "
    "the loss on a line above and write `with loss.backward():`.",
)
NNL206_TRY = Message(
    "a traced `with` block cannot start with `try:`",
    "nnsight intercepts the body at its first line and cannot get out of a `try` there (ValueError); "
    "put a statement above the `try`, or move the `try` outside the block.",
)


def nnl207(access: str) -> Message:
    return Message(
        f"`{access}` is a tuple `(attn_output, attn_weights)`: it takes no item assignment",
        f"It raises TypeError; write into the tensor in place (`{access}[0][:] = ...`) or assign a rebuilt "
        f"tuple to `{access}`.",
    )


def nnl208(magic: str, opener: str) -> Message:
    return Message(
        f"`{opener}(...)` in a `%%{magic}` cell: nnsight cannot read the source of its block",
        f"IPython compiles a `%%{magic}` body under a name of its own, which nnsight finds no source for "
        f"(WithBlockNotFoundError; TypeError for `generate`); define the trace in a function in another cell and time the call.",
    )


# The model family NNL401-NNL404: what the model a trace runs on has (its schema).
NNL401_TITLE = "a module path the model does not have"
NNL402_TITLE = "a layer index past the model's layer count"
NNL403_TITLE = "a module's tensor output indexed as if it were a tuple"
NNL404_TITLE = "a module's tuple output used as if it were a tensor"


def nnl401(written: str, resolved, model: str, parent: str, missing: str, children, suggestion,
           raises: str = "It raises AttributeError when the trace runs.", transformers: str = "") -> Message:
    """`raises`: the story's last sentence (the run-time hook, telling the error raised, has none)."""
    in_transformers = f" in {transformers}" if transformers else ""
    listed = ", ".join(f"`{c}`" for c in children[:8]) + (", ..." if len(children) > 8 else "")
    where = f"under `{parent}`" if parent else "at its top"
    text = f"`{written}`" + (f" (`{resolved}`)" if resolved else "")
    story = f"Its children{in_transformers}: {listed}" if children else f"It has no children{in_transformers}"
    if suggestion:
        story += f"; {model.split(' ')[0]} calls it `{suggestion}`"
    return Message(f"{text}: this {model} has no module `{missing.lstrip('.')}` {where}",
                   " ".join(filter(None, [story + ".", raises])))


def nnl402(written: str, model: str, index: int, layers: str, count: int, how: str = "") -> Message:
    said = f" ({how})" if how else ""
    return Message(f"`{written}`: index {index}{said} is past the end of `{layers}`, which has {count}",
                   f"This {model} has {count} of them (0..{count - 1}, or -{count}..-1); nnsight raises "
                   "AttributeError naming the index.")


def nnl403(written: str, model: str, access: str, kind: str, dims, index: int, transformers: str, since) -> Message:
    shape = "(" + ", ".join(dims) + ")"
    what = "output" if kind == "output" else "first positional input"
    since_words = f", since transformers {since}" if since else ""
    return Message(f"`{written}` silently selects {dims[0]} row {index}: `{access}` is a tensor, not a tuple",
                   f"The module's {what} is the tensor {shape} itself for this {model} in {transformers}"
                   f"{since_words}; use `{access}` whole.")


def nnl403_unpack(access: str, model: str, dims, transformers: str, since) -> Message:
    shape = "(" + ", ".join(dims) + ")"
    since_words = f", since transformers {since}" if since else ""
    return Message(f"unpacking `{access}` splits its {dims[0]} dimension: it is a tensor, not a tuple",
                   f"It is the tensor {shape} itself for this {model} in {transformers}{since_words}; bind it whole.")


def nnl404(written: str, model: str, use: str, transformers: str, items: int) -> Message:
    return Message(f"`{written}` is a tuple of {items}, not a tensor",
                   f"For this {model} in {transformers}, {use}; take its first item (`{written}[0]`), the hidden "
                   "states.")


NNL404_USES = {
    "tensor-index": "tensor indexing raises `TypeError: tuple indices must be integers or slices`",
    "tensor-index-store": "a slice assignment raises `TypeError: 'tuple' object does not support item assignment`",
    "item-store": "item assignment raises `TypeError: 'tuple' object does not support item assignment`",
    "attribute": "`.{name}` raises AttributeError on a tuple",
    "arith": "arithmetic on a tuple raises TypeError, or silently repeats it (`* n`)",
    "torch-call": "`{name}()` fails on a tuple (TypeError or AttributeError)",
}


# -- NNL5xx: model lifecycle and inputs ------------------------------------------------------------

NNL501_TITLE = "a lazily loaded model used as a torch module before it is dispatched"
NNL502_TITLE = "an empty prompt or an empty batch given to a trace, generate or invoke"
NNL503_TITLE = "a `LanguageModel` over a torch model built from a config, without `tokenizer=`"
NNL504_TITLE = "a module's `.output`/`.input` read after its trace ended"
NNL505_TITLE = "a `tracer.iter` step at or past `max_new_tokens`, which never runs"
NNL506_TITLE = "`.output`/`.input` of a torch module instead of its envoy"
NNL507_TITLE = "a graph proxy used as a plain Python value inside a trace (nnsight < 0.5)"


NNL501_CONSEQUENCES = {
    "to-device": "the tensor goes to the meta device and the trace then fails "
                 "(NotImplementedError: Cannot copy out of meta tensor; no data!)",
    "item": "the parameter has no data yet (RuntimeError: Tensor.item() cannot be called on meta tensors)",
    "move": "the weightless model cannot be moved (NotImplementedError: Cannot copy out of meta tensor; no data!)",
}


def nnl501(use: str, name: str, why: str) -> Message:
    return Message(
        f"`{use}` runs before `{name}` is dispatched: its weights are still on the meta device",
        f"A model loaded by id or path stays on the meta device, without weights, until its first trace, so "
        f"{NNL501_CONSEQUENCES[why]}; pass `dispatch=True` when constructing it, call `{name}.dispatch()` first, "
        "or do this after a trace.",
    )


def nnl503(wrapper: str, model_class: str) -> Message:
    return Message(
        f"`{wrapper}(...)` wraps a `{model_class}` built here but gets no `tokenizer=`",
        "A model built in the program names no checkpoint to load a tokenizer from, so the construction fails "
        "(\"Impossible to guess which tokenizer to use\"); pass `tokenizer=` (e.g. `AutoTokenizer.from_pretrained(...)`).",
    )


def nnl502(opener: str, what: str) -> Message:
    return Message(
        f"`{opener}(...)` is given {what}: the model gets no token to run on",
        "The run fails deep inside (RuntimeError: cannot reshape tensor of 0 elements, IndexError, or "
        "\"outside of interleaving\"); pass at least one non-empty prompt.",
    )


def nnl504(access: str, trace_line: int) -> Message:
    return Message(
        f"`{access}` is read after its trace (line {trace_line}) ended",
        "A module's `.output`/`.input` exist only while a trace runs the model (ValueError: \"outside of "
        "interleaving\"); read it inside the trace and `.save()` it.",
    )


def nnl505(step: int, max_new_tokens: int, loop: str) -> Message:
    return Message(
        f"`{loop}` asks for step {step}, but `max_new_tokens={max_new_tokens}`: its body never runs",
        f"Generation makes steps 0 to {max_new_tokens - 1}; nnsight abandons the rest of the block, so what it "
        "binds is undefined after the trace (NameError); ask for a step below max_new_tokens.",
    )


def nnl506(access: str, how: str) -> Message:
    return Message(
        f"`{access}` reads `.{access.rsplit('.', 1)[-1]}` of a torch module ({how}), not of its envoy",
        "A torch module has no `.output`/`.input` (AttributeError); walk the envoys instead "
        "(`model.modules()`, `model.named_modules()`, `model.transformer.h[i]`).",
    )


# What asking a proxy for a plain value does before 0.5, by (form group, release; None: both), as
# measured on nnsight 0.3.7 and 0.4.11 (rules/NNL507/).
NNL507_ASKS = {"len": "`len()`", "int": "`int()`", "float": "`float()`", "range": "`range()`", "bool": "`bool()`",
               "if": "an `if`", "while": "a `while`", "assert": "an `assert`", "ternary": "a conditional expression",
               "and/or": "`and`/`or`", "not": "`not`", "in": "`in`", "for": "a `for` loop",
               "comprehension": "a comprehension", "unpack": "unpacking"}
NNL507_STORIES = {
    ("size", None): "its `__len__`/`__index__` give another proxy, so Python fails (TypeError: __index__ returned "
                    "non-int); use a size you know, or the saved value after the trace.",
    ("truth", (0, 3)): "0.3 cannot give it a truth value while the graph is built (AttributeError: type object "
                       "'_empty' has no attribute '__bool__'); use `with tracer.cond(...):`, or decide after the trace.",
    ("truth", (0, 4)): "0.4 makes only an `if` statement on a proxy a graph condition; here nnsight finds no `if` to "
                       "read back and fails (AttributeError: 'NoneType' object has no attribute 'end_lineno'); write "
                       "an `if` statement, or decide after the trace.",
    ("items", (0, 3)): "0.3's proxy has no `__iter__`: Python indexes it 0, 1, 2, ... and never stops (a `break` moves "
                       "the failure to the trace's end: IndexError); loop over a range you know, or after the trace.",
    ("items", (0, 4)): "0.4 makes only a `for` statement over a proxy a graph loop; a comprehension fails (AttributeError: "
                       "... has no attribute 'elt'); write a `for` statement.",
    ("unpack", (0, 3)): "0.3's proxy has no `__iter__` and never runs out of items (ValueError: too many values to "
                        "unpack); index it instead (`out[0]`, `out[1]`).",
    ("unpack", (0, 4)): "0.4 iterates a proxy only in a `for` statement (AttributeError: 'NoneType' object has no "
                        "attribute 'end_lineno'); index it instead (`out[0]`, `out[1]`).",
}
NNL507_GROUPS = {"len": "size", "int": "size", "float": "size", "range": "size", "for": "items",
                 "comprehension": "items", "unpack": "unpack"}


def nnl507(form: str, code: str, release: tuple) -> Message:
    group = NNL507_GROUPS.get(form, "truth")
    story = NNL507_STORIES.get((group, release)) or NNL507_STORIES[(group, None)]
    return Message(
        f"{NNL507_ASKS[form]} asks `{code}`, a graph proxy on nnsight {release[0]}.{release[1]}, for a plain value",
        f"Before 0.5 a value in a trace is a proxy with no value until the trace runs: {story}",
    )

# -- NNL6xx: remote (NDIF) runs ---------------------------------------------------------------------

NNL601_TITLE = "a remote block reads an object nnsight's request cannot carry"
NNL602_TITLE = "a gradient in a remote block where nothing asks for one (NDIF's parameters are frozen)"


def nnl601(name: str, what: str, opener: str) -> Message:
    return Message(
        f"`{name}` is {what}, which the remote request of `{opener}(...)` cannot carry",
        "nnsight pickles every name a remote block reads into the request, and cloudpickle cannot pickle it "
        f"(PicklingError / TypeError: cannot pickle), so the request fails before it is sent; use `{name}` "
        "outside the block, on the saved values.",
    )


PREFLIGHT_REFUSED = (
    "nnsight-lint refused to submit this remote {kind} ({where}): its block has {count} finding(s) "
    "that would fail it on the server or before it is sent:\n{findings}\n"
    "Turn the pre-flight off for one block with `with nnsight_lint.runtime.preflight_off():`, or for "
    "the process with NNSIGHT_LINT_PREFLIGHT=0 / `install(preflight=False)`."
)


def nnl602(call: str, opener: str) -> Message:
    return Message(
        f"`{call}` in a `{opener}(...)` block, and nothing before it calls `.requires_grad_(True)`",
        "NDIF serves its models with every parameter frozen, so a remote forward builds no autograd graph "
        "unless a value asks for one; the backward fails there (NotImplementedError: \"This tensor does not "
        "require grad\", or torch's RuntimeError). Call `.requires_grad_(True)` on the activation you want "
        "the gradient of, before the backward.",
    )
