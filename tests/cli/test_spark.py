"""``mysqlddl spark``'s arguments (the job itself is tested under tests/spark, -m spark)."""

from __future__ import annotations

import argparse
import inspect

import pytest

from mysqlddl.cli import args as common
from mysqlddl.cli.main import build_parser
from mysqlddl.options import change_event_options
from mysqlddl.spark import job as spark_job


def test_the_job_decodes_with_the_options_changes_uses():
    # both take options.change_event_options: the CLI's from its arguments, the job's by default
    ns = argparse.Namespace(no_verify_checksums=True, ddl_errors="skip")
    assert common.baseline_options(ns) == change_event_options(verify_checksums=False, ddl_errors="skip")
    assert common.baseline_options(ns).json_as == "text" and not common.baseline_options(ns).verify_checksums
    assert inspect.signature(spark_job.run).parameters["options"].default is None
    assert "change_event_options()" in inspect.getsource(spark_job.run)


def test_arguments_share_the_changes_groups():
    args = build_parser().parse_args(["spark", "/a", "/b", "--out", "/o", "--range-size", "16M", "--schema-position",
                                      "bin.000003:4", "--pk-change", "split", "--ddl-errors", "warn"])
    assert (args.inputs, args.out, args.range_size) == (["/a", "/b"], "/o", 16 << 20)
    assert (args.schema_position, args.pk_change, args.ddl_errors) == ("bin.000003:4", "split", "warn")
    assert args.func.__module__ == "mysqlddl.cli.spark"


def test_bad_values_are_usage_errors(run_cli, usage_error):
    usage_error(run_cli("spark", "/a", "--out", "/o", "--range-size", "0"), "argument --range-size: not a size")
    usage_error(run_cli("spark", "/a", "--out", "/o", "--schema-position", "x"), "argument --schema-position")
    usage_error(run_cli("spark", "/a"), "--out")


@pytest.mark.parametrize("text", ["65536", "64k", "16M", "128MiB", "1G"])
def test_sizes(text):
    assert common.size(text) == {"65536": 65536, "64k": 64 << 10, "16M": 16 << 20, "128MiB": 128 << 20,
                                 "1G": 1 << 30}[text]
