"""The MySQL/MariaDB front end: the pieces of this package that the dialect-neutral functions of
:mod:`mysqlddl.ddl` use, named once (:data:`mysqlddl.ddl.frontend.FRONTENDS` serves it for both
``Dialect.MYSQL`` and ``Dialect.MARIADB``)."""

from __future__ import annotations

from ..frontend import Frontend
from . import classify, engine, script

FRONTEND = Frontend("mysql", engine.Engine, script.split_script, classify.classify, "mysqlddl.ddl.mysql.dispatcher")

__all__ = ["FRONTEND"]
