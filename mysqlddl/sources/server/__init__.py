"""A running server as a binlog source (the replica protocol).

Modules: :mod:`.source` (the source: start-up checks, the dump loop, reconnection),
:mod:`.protocol` (the replica commands we build), :mod:`.pymysql_bridge` (the only module that
uses PyMySQL: login, TLS, plain queries), and ``snapshot`` (consistent schema capture and the
initial data snapshot, another part of the work).
"""

from .source import ServerSource, open_server

__all__ = ["ServerSource", "open_server"]
