"""The join: binlog events + the schema history -> change records (see :mod:`.reader`)."""

from .reader import *  # noqa: F403
from .reader import __all__  # noqa: F401
