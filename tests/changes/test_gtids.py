"""The GTID set a checkpoint carries: MySQL intervals merged, MariaDB's last GTID per domain."""

from __future__ import annotations

from mysqlddl.changes.gtids import GtidTracker

U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
U2 = "aaaaaaaa-71ca-11e1-9e33-c80aa9429562"


def test_mysql_intervals_grow_and_merge():
    g = GtidTracker()
    for n in (1, 2, 3, 5):
        g.add(f"{U1}:{n}")
    g.add(f"{U2}:7")
    assert g.text == f"{U1}:1-3:5,{U2}:7"
    g.add(f"{U1}:4")
    assert g.text == f"{U1}:1-5,{U2}:7"
    g.add(None)                                       # an anonymous transaction
    assert GtidTracker(g.text).text == g.text


def test_tags_and_a_seed_set():
    g = GtidTracker(f"{U1}:1-10")
    g.add(f"{U1}:mytag:3")
    g.add_set(f"{U1}:12-13")
    assert g.text == f"{U1}:1-10:12-13,{U1}:mytag:3"


def test_mariadb_keeps_the_last_gtid_per_domain():
    g = GtidTracker("0-1-5")
    g.add("0-1-6")
    g.add("1-2-3")
    g.add("0-3-7")                                    # a failover: another server id in domain 0
    assert g.text == "0-3-7,1-2-3"
    g.add_set("2-1-9")
    assert g.text == "0-3-7,1-2-3,2-1-9"


def test_a_gtid_list_behind_the_set_does_not_take_a_domain_back():
    # (a stream started after a GTID set, as after a failover, may begin with the GTID_LIST of a
    # file's start, which is behind the set)
    g = GtidTracker("0-21-50,1-21-4")
    g.add_set("0-22-30,2-22-1")
    assert g.text == "0-21-50,1-21-4,2-22-1"
    g.add_set("0-22-51")
    assert g.text == "0-22-51,1-21-4,2-22-1"
