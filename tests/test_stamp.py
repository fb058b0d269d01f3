"""The installed generated parser must match grammars/: a .g4 edited without regenerating fails here,
naming the command that fixes it."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("_grammar_build", ROOT / "tools" / "grammar_build.py")
grammar_build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(grammar_build)


def installed_generated() -> Path:
    import mysqlddl._generated as g

    return Path(g.__file__).resolve().parent


def test_installed_parser_matches_grammars():
    problems = grammar_build.stamp_problems(ROOT, installed_generated())
    assert not problems, (
        "the generated parser is stale:\n  " + "\n  ".join(problems)
        + f"\nrun `{grammar_build.REGEN_COMMAND}` (editable install) or reinstall the package")


def test_stamp_records_every_grammar_and_the_antlr_version():
    stamp = grammar_build.read_stamp(installed_generated())
    assert stamp["antlr"] == "4.13.2"
    assert {"mysql/MySqlLexer.g4", "mysql/MySqlParser.g4", "oracle/OracleLexer.g4",
            "oracle/OracleParser.g4"} <= set(stamp["grammars"])


def _copy_tree(dst: Path) -> Path:
    """A scratch copy of what the build needs: grammars/ and tools/."""
    for d in ("grammars", "tools"):
        shutil.copytree(ROOT / d, dst / d, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


@pytest.mark.skipif(shutil.which("java") is None, reason="needs java to regenerate")
def test_edit_without_regen_fails_then_regen_command_fixes_it(tmp_path):
    root = _copy_tree(tmp_path)
    assert grammar_build.generate(root) is True
    assert grammar_build.stamp_problems(root, root / "generated") == []
    lexer = root / "grammars" / "oracle" / "OracleLexer.g4"
    lexer.write_text(lexer.read_text() + "\n// an edit\n")
    problems = grammar_build.stamp_problems(root, root / "generated")
    assert problems == ["grammars/oracle/OracleLexer.g4 changed since the parser was generated"]
    # The maintainer's command (without its test step) brings the stamp back in line.
    rc = subprocess.call([sys.executable, str(root / "tools" / "regen.py"), "--no-test"], cwd=root,
                         stdout=subprocess.DEVNULL)
    assert rc == 0
    assert grammar_build.stamp_problems(root, root / "generated") == []


def test_missing_java_stops_the_build_with_what_to_install(tmp_path, monkeypatch):
    root = _copy_tree(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(grammar_build.GrammarBuildError) as exc:
        grammar_build.generate(root)
    assert "no `java` was found" in str(exc.value)
    assert "apt-get install -y openjdk-17-jre-headless" in str(exc.value)
    assert not (root / "generated").exists()


def test_grammar_error_leaves_no_half_written_parser(tmp_path):
    if shutil.which("java") is None:
        pytest.skip("needs java")
    root = _copy_tree(tmp_path)
    grammar_build.generate(root)
    before = (root / "generated" / "STAMP.json").read_text()
    parser = root / "grammars" / "oracle" / "OracleParser.g4"
    parser.write_text(parser.read_text() + "\nbroken: ;;\n")
    with pytest.raises(grammar_build.GrammarBuildError, match="ANTLR failed on grammars/oracle"):
        grammar_build.generate(root)
    assert (root / "generated" / "STAMP.json").read_text() == before
