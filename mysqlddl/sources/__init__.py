"""Where events come from: binlog files and live servers."""
