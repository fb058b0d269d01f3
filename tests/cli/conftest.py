"""Helpers of the CLI tests."""

from __future__ import annotations

import pytest

MAXWELL = "binlogs/maxwell/binlog.000004"
OLR_CRUD = "corpora/olr-json/rophy-olr-fork-prebuilt/basic-crud/output.json"


@pytest.fixture
def maxwell(shared_path):
    """A small MySQL binlog with DDL and rows (maxwell's test fixture)."""
    return shared_path / MAXWELL


@pytest.fixture
def olr_crud(shared_path):
    """A small OpenLogReplicator output (inserts, updates, deletes of one table)."""
    return shared_path / OLR_CRUD


@pytest.fixture
def input_error():
    """``input_error(proc, *needles)``: the subprocess failed as an input error should: exit 1,
    one line on stderr (no traceback) holding every needle; returns that line."""

    def check(proc, *needles: str) -> str:
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1, proc.stderr
        for needle in needles:
            assert needle in lines[0]
        return lines[0]

    return check


@pytest.fixture
def usage_error():
    """``usage_error(proc, *needles)``: argparse rejected a value: exit 2, the usage line, and the
    error naming the option; returns stderr."""

    def check(proc, *needles: str) -> str:
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr
        assert proc.stderr.startswith("usage: mysqlddl ")
        for needle in needles:
            assert needle in proc.stderr
        return proc.stderr

    return check
