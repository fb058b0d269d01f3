"""A live MySQL/MariaDB server as a source."""
