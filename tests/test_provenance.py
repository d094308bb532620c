"""A benchmark run records which code it measured, and says so when the sources change under it."""

from __future__ import annotations

import json

from benchmarks.provenance import Provenance, source_digest


def test_a_run_whose_sources_change_between_crawls_is_marked_mixed(tmp_path, capsys):
    module = tmp_path / "focused" / "strategy.py"
    module.parent.mkdir()
    module.write_text("WEIGHT = 1\n")
    provenance = Provenance(tmp_path, {"pages": 2000})
    provenance.note("crawl testing/focused")
    assert not provenance.mixed and capsys.readouterr().err == ""
    module.write_text("WEIGHT = 2\n")  # the next experiment's branch, checked out while the run goes on
    provenance.note("crawl logging/focused")
    assert provenance.mixed and "crawl logging/focused runs other code" in capsys.readouterr().err
    provenance.save(tmp_path / "provenance.json")
    saved = json.loads((tmp_path / "provenance.json").read_text())
    assert saved["mixed"] and saved["commit"] == "" and saved["settings"] == {"pages": 2000}  # not a git tree
    assert [step["sources"] for step in saved["steps"]] == [provenance.first, source_digest(tmp_path)]
