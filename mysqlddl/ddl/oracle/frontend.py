"""The Oracle front end: the pieces of this package that the dialect-neutral functions of
:mod:`mysqlddl.ddl` use, named once (:data:`mysqlddl.ddl.frontend.FRONTENDS` serves it for
``Dialect.ORACLE``)."""

from __future__ import annotations

from ..frontend import Frontend
from . import classify, dispatcher, engine, script, source

FRONTEND = Frontend("oracle", engine.OracleEngine, script.split_script, classify.classify, dispatcher.build_commands,
                    source.StatementSource)

__all__ = ["FRONTEND"]
