"""Binlog reading: framing, one decoder per event type, row values (compiled or pure-Python)."""
