"""The Oracle front end: the pieces of this package that the dialect-neutral functions of
:mod:`mysqlddl.ddl` use, named once (:data:`mysqlddl.ddl.frontend.FRONTENDS` serves it for
``Dialect.ORACLE``)."""

from __future__ import annotations

from ..frontend import Frontend
from . import classify, engine, script

FRONTEND = Frontend("oracle", engine.OracleEngine, script.split_script, classify.classify,
                    "mysqlddl.ddl.oracle.dispatcher")

__all__ = ["FRONTEND"]
