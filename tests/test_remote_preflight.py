"""Remote runs (NNL6xx) and the runtime pre-flight, offline, on real nnsight 0.8 and the tiny model.

No NDIF is reachable here. What a remote run sends is built by nnsight's own code:
`RequestModel.serialize(tracer)` (what `RemoteBackend` posts, and what `remote="local"` builds
before running it here). The pre-flight is tested against a real `RemoteBackend` pointed at a
socket on this machine that counts the connections it is offered: a refused block never reaches
it, a clean one does.
"""
from __future__ import annotations

import importlib.util
import itertools
import socket
import textwrap
import threading
import warnings
from pathlib import Path

import pytest

from nnsight_lint.doors import runtime
from nnsight_lint.engine.lint import LintOptions, lint_source
from tests.tiny_model import tiny_model

nnsight = pytest.importorskip("nnsight")
pytestmark = pytest.mark.skipif(not nnsight.__version__.startswith("0.8"), reason="nnsight 0.8's request")

_counter = itertools.count()


def _load(tmp_path: Path, source: str):
    """Write a program to a file and import it (nnsight reads a trace's source from its file)."""
    path = tmp_path / f"remote_case_{next(_counter)}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


CAPTURE = """\
from nnsight.tracing.backend import Backend


class Capture(Backend):
    \"\"\"Builds the request a remote backend would send (`RemoteBackend._serialize`: register the
    project's modules, then `RequestModel.serialize`), keeps it or its error, and runs nothing.\"\"\"

    def __call__(self, tracer=None):
        from nnsight.ndif import pull_env
        from nnsight.schema.request import RequestModel

        pull_env()
        try:
            self.request = RequestModel.serialize(tracer)
        except Exception as error:
            self.request = error
"""

GENERATOR_IN_BLOCK = CAPTURE + """
prompts = (p for p in ["the cat sat"])


def main(model, backend):
    with model.trace("the cat sat", backend=backend):
        logits = model.lm_head.output.save()
        rest = prompts
"""

CLEAN_BLOCK = CAPTURE + """
log_name = "results.txt"


def main(model, backend):
    with model.trace("the cat sat", backend=backend):
        logits = model.lm_head.output.save()
        name = log_name
"""


def _request(tmp_path, source):
    module, path = _load(tmp_path, source)
    backend = module.Capture()
    module.main(tiny_model(), backend)
    return backend.request, path


def test_the_request_nnsight_builds_fails_where_nnl601_says(tmp_path):
    request, path = _request(tmp_path, GENERATOR_IN_BLOCK)
    assert isinstance(request, TypeError) and "cannot pickle 'generator' object" in str(request)
    remote = path.read_text().replace("backend=backend", 'remote=True')
    findings = [d for d in lint_source(remote, str(path), LintOptions()) if d.code == "NNL601"]
    read_line = remote.splitlines().index("        rest = prompts") + 1
    assert [(d.line, "prompts" in d.message) for d in findings] == [(read_line, True)]


def test_a_clean_block_serialises_and_round_trips(tmp_path):
    from nnsight.schema.request import RequestModel

    blob, path = _request(tmp_path, CLEAN_BLOCK)
    assert isinstance(blob, bytes)
    restored = RequestModel.deserialize(blob, tiny_model()._remoteable_persistent_objects())
    assert restored.info.frame.f_globals["log_name"] == "results.txt"
    remote = path.read_text().replace("backend=backend", "remote=True")
    assert [d for d in lint_source(remote, str(path), LintOptions()) if d.code == "NNL601"] == []


class _Listener:
    """A TCP socket on this machine that accepts and closes every connection, counting them."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.socket.settimeout(0.2)
        self.accepted = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self.socket.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stop:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join(2)
        self.socket.close()


REMOTE_OUT_OF_ORDER = """\
def main(model, backend):
    with model.trace("the cat sat", backend=backend):
        late = model.transformer.h[1].output.save()
        early = model.transformer.h[0].output.save()
"""

REMOTE_CLEAN = """\
def main(model, backend):
    with model.trace("the cat sat", backend=backend):
        early = model.transformer.h[0].output.save()
        late = model.transformer.h[1].output.save()
"""


@pytest.fixture
def listener():
    server = _Listener()
    yield server
    server.close()


@pytest.fixture
def hook():
    runtime.uninstall()
    runtime.install()
    yield runtime
    runtime.uninstall()


def _remote_backend(listener):
    from nnsight.intervention.backends.remote import RemoteBackend

    return RemoteBackend("nnsight.modeling.language.LanguageModel:tiny", host=listener.host, api_key="x")


def test_preflight_refuses_a_remote_block_before_it_is_sent(tmp_path, listener, hook):
    module, path = _load(tmp_path, REMOTE_OUT_OF_ORDER)
    with pytest.raises(runtime.PreflightRefused) as refused:
        module.main(tiny_model(), _remote_backend(listener))
    assert [d.code for d in refused.value.findings] == ["NNL202"]
    assert f"{path}:4: NNL202" in str(refused.value) and "preflight_off" in str(refused.value)
    assert listener.accepted == 0


def test_preflight_lets_a_clean_block_through(tmp_path, listener, hook):
    module, _ = _load(tmp_path, REMOTE_CLEAN)
    with warnings.catch_warnings(), pytest.raises(Exception) as failed:  # the listener hangs up
        warnings.simplefilter("ignore")
        module.main(tiny_model(), _remote_backend(listener))
    assert not isinstance(failed.value, runtime.PreflightRefused)
    assert listener.accepted >= 1


def test_preflight_off_for_one_block(tmp_path, listener, hook):
    module, _ = _load(tmp_path, REMOTE_OUT_OF_ORDER)
    with runtime.preflight_off(), pytest.raises(Exception) as failed:
        module.main(tiny_model(), _remote_backend(listener))
    assert not isinstance(failed.value, runtime.PreflightRefused)
    assert listener.accepted >= 1


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_preflight_off_for_the_process(tmp_path, listener, monkeypatch, how):
    runtime.uninstall()
    if how == "environment":
        monkeypatch.setenv("NNSIGHT_LINT_PREFLIGHT", "0")
        runtime.install()
    else:
        runtime.install(preflight=False)
    try:
        assert runtime.is_installed() and not runtime.preflight_installed()
        module, _ = _load(tmp_path, REMOTE_OUT_OF_ORDER)
        with pytest.raises(Exception) as failed:
            module.main(tiny_model(), _remote_backend(listener))
        assert not isinstance(failed.value, runtime.PreflightRefused)
    finally:
        runtime.uninstall()


def test_uninstall_puts_the_backends_back():
    from nnsight.intervention.backends.local import LocalSimulationBackend
    from nnsight.intervention.backends.remote import RemoteBackend

    before = (RemoteBackend.__call__, LocalSimulationBackend.__call__)
    runtime.uninstall()
    runtime.install()
    assert RemoteBackend.__call__ is not before[0]
    runtime.uninstall()
    assert (RemoteBackend.__call__, LocalSimulationBackend.__call__) == before


REMOTE_LOCAL_GENERATOR = """\
prompts = (p for p in ["the cat sat"])


def main(model):
    with model.trace("the cat sat", remote="local"):
        logits = model.lm_head.output.save()
        rest = prompts
"""


def test_preflight_on_remote_local_dry_run(tmp_path, hook):
    module, path = _load(tmp_path, REMOTE_LOCAL_GENERATOR)
    with pytest.raises(runtime.PreflightRefused) as refused:
        module.main(tiny_model())
    assert [(d.code, d.line) for d in refused.value.findings] == [("NNL601", 7)]


REMOTE_GRADIENT = """\
def main(model):
    with model.trace("the cat sat", remote="local"):
        hidden = model.transformer.h[0].output
        {ask}
        with model.lm_head.output.sum().backward():
            grad = hidden.grad.save()
    return grad
"""


def test_preflight_refuses_a_remote_gradient_nothing_asks_for(tmp_path, hook):
    """NNL602: refused before the request is built; with `.requires_grad_(True)` the block runs."""
    module, _ = _load(tmp_path, REMOTE_GRADIENT.format(ask="pass"))
    with pytest.raises(runtime.PreflightRefused) as refused:
        module.main(tiny_model())
    assert [(d.code, d.line) for d in refused.value.findings] == [("NNL602", 5)]
    module, _ = _load(tmp_path, REMOTE_GRADIENT.format(ask="hidden.requires_grad_(True)"))
    assert module.main(tiny_model()).shape == (1, 3, 32)
