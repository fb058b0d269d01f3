"""JSON-ready (de)serialisation of the frozen dataclasses of the model and the commands.

Driven by the dataclass type hints, so a new field needs no codec change. Fields equal to their
default are left out (history records stay small; decoding fills them back in). Classes registered
with :func:`polymorphic` carry a ``"@type"`` tag (commands and ALTER operations), so a field typed
with their base class decodes to the right subclass; a field typed with a union of dataclasses
decodes a tagged value as its tagged member and an untagged one as the union's first dataclass.
:func:`rename_fields` keeps data saved under a class's old field names loadable.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from ..errors import SchemaHistoryError

TAG = "@type"
_REGISTRY: dict[str, type] = {}
_HINTS: dict[type, dict[str, Any]] = {}
_RENAMED: dict[type, dict[str, str]] = {}


def polymorphic(cls: type) -> type:
    """Class decorator: encode instances with a ``type`` tag naming the class."""
    _REGISTRY[cls.__name__] = cls
    return cls


def rename_fields(cls: type, **old_to_new: str) -> None:
    """Decode data written when ``cls``'s fields had other names: ``old_to_new`` maps each old
    name to the field that replaced it (data already under the new names is read as it is)."""
    _RENAMED.setdefault(cls, {}).update(old_to_new)


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        h = _HINTS[cls] = typing.get_type_hints(cls)
    return h


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return dataclasses.MISSING


def to_data(obj: Any) -> Any:
    """A JSON-ready value (dicts, lists, str, int, float, bool, None)."""
    if obj is None or isinstance(obj, (bool, int, float, str)) and not isinstance(obj, enum.Enum):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj):
        out: dict[str, Any] = {}
        if type(obj).__name__ in _REGISTRY:
            out[TAG] = type(obj).__name__
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            d = _default_of(f)
            if d is not dataclasses.MISSING and v == d:
                continue
            out[f.name] = to_data(v)
        return out
    if isinstance(obj, (tuple, list)):
        return [to_data(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_data(v) for v in obj)
    if isinstance(obj, typing.Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def from_data(data: Any, hint: Any) -> Any:
    """Rebuild a value of type ``hint`` from :func:`to_data` output."""
    if hint is Any:
        return data
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(hint)
        if data is None and type(None) in args:
            return None
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            return from_data(data, non_none[0])
        classes = [a for a in non_none if dataclasses.is_dataclass(a)]
        if isinstance(data, dict) and classes:
            tag = data.get(TAG)
            if tag is None:
                return from_data(data, classes[0])
            tagged = _REGISTRY.get(tag) if isinstance(tag, str) else None
            for a in classes:
                if tagged is not None and issubclass(tagged, a):
                    return from_data(data, a)
            raise SchemaHistoryError(f"{tag!r} is none of {', '.join(a.__name__ for a in classes)}")
        for a in non_none:  # e.g. str | int: the first one the value already is
            base = typing.get_origin(a) or a
            if isinstance(base, type) and isinstance(data, base):
                return data
        return data
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(v, args[0]) for v in data)
        return tuple(from_data(v, a) for v, a in zip(data, args, strict=True))
    if origin in (frozenset, set):
        (a,) = typing.get_args(hint)
        return frozenset(from_data(v, a) for v in data)
    if origin is typing.Literal:
        return data
    if isinstance(hint, type):
        if isinstance(data, dict) and isinstance(data.get(TAG), str) and data[TAG] in _REGISTRY:
            cls = _REGISTRY[data[TAG]]
            if not issubclass(cls, hint):
                raise SchemaHistoryError(f"{cls.__name__} is not a {hint.__name__}")
            hint = cls
        if not dataclasses.is_dataclass(hint) and not issubclass(hint, enum.Enum) and \
                hint not in (str, int, float, bool):
            raise SchemaHistoryError(f"cannot decode a {hint.__name__} from {str(data)[:80]!r}")
        if dataclasses.is_dataclass(hint):
            renamed = _RENAMED.get(hint)
            if renamed is not None:
                data = {renamed.get(k, k): v for k, v in data.items()}
            hs = _hints(hint)
            kwargs = {f.name: from_data(data[f.name], hs[f.name])
                      for f in dataclasses.fields(hint) if f.name in data}
            return hint(**kwargs)
        if issubclass(hint, enum.Enum):
            return hint(data)
        if hint is float and isinstance(data, int):
            return float(data)
        return data
    return data
