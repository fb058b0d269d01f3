"""Event-driven use of the reader: a chain of handlers that can transform, drop or inject events,
in the spirit of MySQL's binary-log API content-handler pipeline (WL#5223 / the MySQL Binary Log
API's ``Content_handler``): each handler sees what the previous one let through.

A handler is either a plain callable ``f(event)`` returning

- the event (or another one) to pass it on,
- ``None`` to drop it,
- an iterable of events to replace it by zero or more events (injection),

or a :class:`ContentHandler`, whose :meth:`~ContentHandler.process` dispatches to
``on_<type>`` methods (``on_query``, ``on_table_map``, ``on_write_rows``, ``on_mariadb_gtid`` ...,
falling back to ``on_event``) and which can ``inject`` events after the current one and emit
more at the end of the stream (:meth:`~ContentHandler.finish`).

    pipeline = Pipeline([DropTypes("ROWS_QUERY"), MyHandler()])
    for ev in pipeline.run(BinlogReader(paths)):
        ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .events.types import Event


class ContentHandler:
    """Base class for stateful handlers. Override ``on_<type_name lowercased>`` or ``on_event``;
    return the event, a replacement, None (drop) or an iterable of events."""

    def __init__(self) -> None:
        self._injected: list[Event] = []

    def inject(self, event: Event) -> None:
        """Emit ``event`` right after whatever the current call returns."""
        self._injected.append(event)

    def on_event(self, event: Event):
        return event

    def process(self, event: Event):
        method = getattr(self, "on_" + event.type_name.lower(), None)
        return method(event) if method is not None else self.on_event(event)

    def finish(self) -> Iterable[Event]:
        """Events to emit once the input is exhausted (default: none)."""
        return ()

    def take_injected(self) -> list[Event]:
        out, self._injected = self._injected, []
        return out


Handler = Callable[[Event], object] | ContentHandler


def _as_list(result) -> list[Event]:
    if result is None:
        return []
    if isinstance(result, Event):
        return [result]
    if isinstance(result, Iterable) and not isinstance(result, (str, bytes)):
        out = list(result)
        for e in out:
            if not isinstance(e, Event):
                raise TypeError(f"a handler returned {type(e).__name__} among its events")
        return out
    raise TypeError(f"a handler must return an Event, None or an iterable of events, "
                    f"not {type(result).__name__}")


class Pipeline:
    """Runs events through ``handlers`` in order."""

    def __init__(self, handlers: Iterable[Handler] = ()):
        self.handlers: list[Handler] = list(handlers)

    def append(self, handler: Handler) -> Pipeline:
        self.handlers.append(handler)
        return self

    def _apply(self, i: int, event: Event) -> Iterator[Event]:
        if i == len(self.handlers):
            yield event
            return
        h = self.handlers[i]
        if isinstance(h, ContentHandler):
            out = _as_list(h.process(event)) + h.take_injected()
        else:
            out = _as_list(h(event))
        for e in out:
            yield from self._apply(i + 1, e)

    def run(self, events: Iterable[Event]) -> Iterator[Event]:
        for ev in events:
            yield from self._apply(0, ev)
        # End of stream: each handler's final events still pass through the handlers after it.
        for i, h in enumerate(self.handlers):
            if isinstance(h, ContentHandler):
                for e in _as_list(h.finish()) + h.take_injected():
                    yield from self._apply(i + 1, e)


class DropTypes(ContentHandler):
    """Drop every event whose type name is in ``names`` (e.g. ``"ROWS_QUERY"``)."""

    def __init__(self, *names: str):
        super().__init__()
        self.names = {n.upper() for n in names}

    def on_event(self, event: Event):
        return None if event.type_name in self.names else event

    def process(self, event: Event):
        return self.on_event(event)


class KeepTypes(DropTypes):
    """Keep only events whose type name is in ``names``."""

    def on_event(self, event: Event):
        return event if event.type_name in self.names else None


def run(events: Iterable[Event], *handlers: Handler) -> Iterator[Event]:
    """Shorthand for ``Pipeline(handlers).run(events)``."""
    return Pipeline(handlers).run(events)


__all__ = ["ContentHandler", "DropTypes", "Handler", "KeepTypes", "Pipeline", "run"]
