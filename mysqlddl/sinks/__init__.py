"""Where change records go (see :mod:`.jsonl`)."""
