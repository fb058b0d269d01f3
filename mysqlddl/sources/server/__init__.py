"""A running server as a binlog source (the replica protocol).

Modules: :mod:`.stream` (the source: start-up, the planned start, reconnection and resumption,
the source contract), :mod:`.session` (one dump connection: registration, the dump command, the
event packets), :mod:`.checks` (what the server must be and allow, and that a reconnect reached
the same server), :mod:`.dump_errors` (what an ERR ending a dump means), :mod:`.protocol` (the
replica commands we build), :mod:`.pymysql_bridge` (the only module that uses PyMySQL: login, TLS,
plain queries), and ``snapshot`` (consistent schema capture and the initial data snapshot).
"""

from .stream import ServerSource, open_server

__all__ = ["ServerSource", "open_server"]
