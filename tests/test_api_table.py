"""The bundled nnsight API table (`nnsight_lint/knowledge/nnsight_api.json`) is what the releases
offer: re-recorded here on the installed nnsight (0.8.1), and agreeing with every removal NNL301
knew before the table existed.

`python scripts/gen_api_table.py --check` re-checks every recorded release (0.2 .. 0.8) on demand.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nnsight_lint.knowledge import nnsight_api, nnsight_migrations

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import gen_api_table  # noqa: E402


def test_the_bundled_table_equals_what_the_installed_nnsight_offers(tmp_path):
    import nnsight

    table = nnsight_api.table()
    minor = ".".join(nnsight.__version__.split(".")[:2])
    assert table["releases"][minor] == nnsight.__version__, "the table records this very release"
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps(gen_api_table.probe_names(table)))
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_api_table.py"), "record", "--probe", str(probe)],
                         capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    recorded = json.loads(run.stdout)
    assert recorded["errors"] == []
    assert gen_api_table.project(table, minor) == gen_api_table.comparable(recorded)


def test_the_table_covers_every_minor_and_the_objects_users_touch():
    table = nnsight_api.table()
    assert list(table["releases"]) == ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8"]
    for role in ("model", "envoy", "tracer", "invoker"):
        assert table["recorded"][role] == list(table["releases"]), role
    print(gen_api_table.coverage(table))


# nnsight 0.5 still has `local`, `cond` and `iter`, as stubs that raise when called
# (`@deprecated(error=True)`): the table sees the names until 0.6, NNL301 reports the calls from 0.5.
STUBS_IN_0_5 = {"nnsight.local", "nnsight.cond", "nnsight.iter"}


@pytest.mark.parametrize("name", sorted(__import__("nnsight_lint.rules.nnl301", fromlist=["_REMOVED"])._REMOVED))
def test_every_module_function_nnl301_knew_is_gone_in_the_table(name):
    from nnsight_lint.rules import nnl301

    since = nnl301._REMOVED[name][0]
    change = nnsight_api.name_change(name, (0, 8))
    assert change is not None and change.removed is not None, name
    if name in STUBS_IN_0_5:
        assert (since, change.removed) == ((0, 5), (0, 6))
    else:
        assert change.removed == since, (name, change)
    for minor in nnsight_api.releases():  # and where NNL301 is silent, the release has it
        version = nnsight_api._version(minor)
        if (0, 4) <= version < since:
            assert nnsight_api.name_change(name, version) is None, (name, minor)


@pytest.mark.parametrize("role, member, removed", [
    ("envoy", "next", (0, 8)), ("model", "next", (0, 8)), ("tracer", "apply", (0, 5)), ("output", "value", (0, 5)),
    ("output", "stop", (0, 6)), ("model", "_model", (0, 8)), ("saved", "value", (0, 4)),
])
def test_the_members_nnl301_and_the_issue_name_are_gone_in_the_table(role, member, removed):
    change = nnsight_api.member_change(role, member, (0, 8))
    assert change is not None and change.removed == removed, change


def test_what_arrived_later_is_reported_as_not_there_yet():
    change = nnsight_api.name_change("nnsight.save", (0, 4))
    assert change is not None and change.added == (0, 5) and change.release == "0.4.11"
    assert nnsight_api.name_change("nnsight.save", (0, 5)) is None
    assert nnsight_api.member_change("tracer", "barrier", (0, 4)).added is not None


def test_names_the_table_does_not_know_are_no_finding():
    assert nnsight_api.name_change("nnsight.no_such_thing", (0, 8)) is None
    assert nnsight_api.member_change("envoy", "weight", (0, 8)) is None  # the torch module's
    assert nnsight_api.name_change("nnsight.LanguageModel", (0, 1)) is None  # before the first recorded


def test_every_migration_names_a_source_and_a_change_the_table_has():
    for (kind, role, name), migration in nnsight_migrations.MIGRATIONS.items():
        assert migration.source, name
        recorded = {"module": nnsight_api.table()["modules"], "name": nnsight_api.table()["names"],
                    "member": nnsight_api.table()["members"].get(role, {}),
                    "keyword": _keywords(role)}[kind]
        if migration.fix == "tracer" and role == "model" and name not in recorded:  # `model.cache`: the tracer's
            assert nnsight_api.member_change("tracer", name, (0, 8)) is None and name in nnsight_api.table()["members"]["tracer"]
            continue
        assert name in recorded and recorded[name] != ":", f"{kind} {role} {name}: the table shows no change"


def _keywords(call):
    """A call's keywords; `trace`, `generate`, `scan` hand theirs on to each other and the tracer."""
    keywords = nnsight_api.table()["keywords"]
    family = nnsight_api._TRACING_CALLS if call in nnsight_api._TRACING_CALLS else (call,)
    found = {}
    for member in family:
        for name, ranges in keywords.get(member, {}).get("params", {}).items():
            found[name] = ranges if name not in found or found[name] == ":" else found[name]
    return found


@pytest.mark.parametrize("target", [(0, minor) for minor in range(2, 10)])
def test_the_members_nnl302_asks_roles_of_hold_every_member_a_role_lacks(target):
    """NNL302's walk asks a receiver's role only of the members `lacked_members` names: a member
    some role lacks on the target and it left out would go unreported."""
    from nnsight_lint.rules import nnl302

    asked = nnl302._asked_members(target)
    lacked = {(role, name) for role, members in nnsight_api.table()["members"].items() for name in members
              if nnsight_api.member_change(role, name, target) is not None}
    assert lacked, "every target lacks something some release had"
    assert {name for _, name in lacked} - nnl302._NNL301_MEMBERS <= asked
    assert nnsight_migrations.MOVED_TO_TRACER - nnl302._NNL301_MEMBERS <= asked
    if target >= (0, 6):  # `.output` and `.save` on every object that has them since 0.6: no role asked
        assert "output" not in asked and "save" not in asked
