"""String literal unescaping and DEFAULT classification."""

import pytest

from mysqlddl.model import literals


@pytest.mark.parametrize("text,value", [
    ("'abc'", "abc"), ("'it''s'", "it's"), ("'it\\'s'", "it's"), ('"say ""hi"""', 'say "hi"'),
    ("'a\\nb'", "a\nb"), ("'\\%'", "\\%"), ("'\\x'", "x"), ("_utf8mb4'x'", "x"), ("N'x'", "x"),
    ("'a' 'b'", "ab"), ("_latin1 'q'", "q"), ("''", ""),
])
def test_string_value(text, value):
    assert literals.string_value(text) == value


def test_no_backslash_escapes_keeps_backslashes():
    assert literals.string_value("'a\\nb'", no_backslash_escapes=True) == "a\\nb"


@pytest.mark.parametrize("text", ["abc", "1", "(1)", "x'41'"])
def test_not_a_string(text):
    assert literals.string_value(text) is None


@pytest.mark.parametrize("text,kind", [
    ("NULL", "null"), ("null", "null"), ("TRUE", "number"), ("-1.5e3", "number"), ("'x'", "string"),
    ("CURRENT_TIMESTAMP", "now"), ("now(3)", "now"), ("LOCALTIMESTAMP()", "now"), ("(CURRENT_TIMESTAMP(2))", "now"),
    ("b'101'", "bits"), ("0b11", "bits"), ("X'4142'", "hex"), ("0x41", "hex"), ("(rand())", "expression"),
    ("uuid()", "expression"),
])
def test_classify(text, kind):
    assert literals.classify(text).kind == kind


def test_classify_fsp_and_expression_text():
    assert literals.classify("now(3)").fsp == 3
    assert literals.classify("( a + (b) )").value == "( a + (b) )"


def test_unquote_identifier():
    assert literals.unquote_identifier("`we``ird`") == "we`ird"
    assert literals.unquote_identifier('"a""b"') == 'a"b'
    assert literals.unquote_identifier("plain") == "plain"


def test_bit_defaults_must_fit():
    from mysqlddl.errors import DdlSemanticError
    from mysqlddl.model.types import TypeFamily

    assert literals.normalise_default(literals.classify("'1'"), TypeFamily.BIT, length=8).value == "b'110001'"
    assert literals.normalise_default(literals.classify("5"), TypeFamily.BIT, length=3).value == "b'101'"
    with pytest.raises(DdlSemanticError):
        literals.normalise_default(literals.classify("'1'"), TypeFamily.BIT, length=1)
