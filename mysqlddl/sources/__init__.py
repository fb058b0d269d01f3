"""Where events come from: binlog files, a directory a server is writing (:mod:`.directory`), live servers."""
