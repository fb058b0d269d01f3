"""The MySQL/MariaDB front end: the pieces of this package that the dialect-neutral functions of
:mod:`mysqlddl.ddl` use, named once (:data:`mysqlddl.ddl.frontend.FRONTENDS` serves it for both
``Dialect.MYSQL`` and ``Dialect.MARIADB``)."""

from __future__ import annotations

from ..frontend import Frontend
from . import classify, dispatcher, engine, script, source

FRONTEND = Frontend("mysql", engine.Engine, script.split_script, classify.classify, dispatcher.build_commands,
                    source.StatementSource)

__all__ = ["FRONTEND"]
