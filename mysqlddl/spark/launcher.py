"""Starting and ending the job's Spark: the SparkConf, an embedded local JVM's start (its
start-up options and class-data archive cache) and its end (its Python worker daemon ended
through Linux /proc first, the gateway shut down, the archive published), and a SparkSession for
reading the output back. pyspark loads only when one of these functions runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import socket
import sys
import time
import warnings

#: The embedded local JVM's start-up options (see :func:`_conf`).
LOCAL_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
#: The environment variable naming the directory of the embedded JVM's class-data archive
#: (:func:`context` with ``cds=True``), or "off"; default ``$XDG_CACHE_HOME/mysqlddl``.
CDS_ENV = "MYSQLDDL_SPARK_CDS"

# (temporary, final) path of the archive this process's JVM writes as it exits: :func:`stop`
# ends the JVM and publishes it
_CDS_DUMP: list[tuple[str, str]] = []


def _cds_archive(jvm_options: str) -> str | None:
    """Where the embedded JVM's class-data archive for this java, these Spark jars and these
    options lives (a dynamic CDS archive, JDK 13+, holds the classes of one JVM build from one
    class path: it is keyed by all three), or None: no cache directory, no java found, or a path
    that would need quoting in Spark's option string."""
    # pyspark (optional, heavy): only when an archive is looked up
    import pyspark

    d = os.environ.get(CDS_ENV)
    if d is None:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mysqlddl")
    elif d.strip().lower() in ("", "0", "off", "no", "false"):
        return None
    d = os.path.abspath(d)
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.path.exists(java) or re.search(r"[\s'\"]", d):
        return None
    java = os.path.realpath(java)
    jars = os.path.realpath(os.path.join(os.environ.get("SPARK_HOME") or os.path.dirname(pyspark.__file__), "jars"))
    parts = [pyspark.__version__, jvm_options]
    for p in (java, os.path.join(os.path.dirname(os.path.dirname(java)), "lib", "server", "libjvm.so"), jars):
        try:
            st = os.stat(p)
            parts.append(f"{p}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append(p)
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return os.path.join(d, f"spark-jvm-{key}.jsa")


def _cds_options(archive: str) -> tuple[str, tuple[str, str] | None]:
    """The JVM options that map ``archive``, or, when there is none yet, make the JVM write it
    under a temporary name of this process as it exits (:func:`stop` publishes it); and that
    dump's (temporary, final) paths. An earlier run's leftover temporary (a JVM that exited
    without :func:`stop`) is removed once its process is gone."""
    quiet = " -Xlog:cds*=off"    # the JVM logs CDS warnings (classes it cannot archive) to stdout
    if os.path.exists(archive):
        # a damaged archive crashes the JVM as it maps it: its crash report goes next to the
        # archive, not into the user's working directory
        crash = os.path.join(os.path.dirname(archive), "hs_err_pid%p.log")
        return f"-XX:SharedArchiveFile={archive} -XX:ErrorFile={crash}{quiet}", None
    d = os.path.dirname(archive)
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):
        m = re.fullmatch(r"spark-jvm-[0-9a-f]+\.jsa\.(\d+)\.tmp", name)
        if m and not _alive(int(m.group(1))):
            try:
                os.unlink(os.path.join(d, name))
            except OSError:
                pass
    tmp = f"{archive}.{os.getpid()}.tmp"
    return f"-XX:ArchiveClassesAtExit={tmp}{quiet}", (tmp, archive)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _conf(master: str | None, app: str, *, cds: bool = False):
    """The job's SparkConf: ``master`` when given; under spark-submit (a gateway is already up) the
    one it configured; else an embedded ``local[*]``. With ``cds`` an embedded JVM also maps its
    class-data archive (or writes it); returns (conf, archive path or None, dump or None)."""
    # pyspark (optional, heavy): only when a context is made
    from pyspark import SparkConf

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = SparkConf().setAppName(app)
    if master:
        conf.setMaster(master)
    elif "PYSPARK_GATEWAY_PORT" not in os.environ:
        conf.setMaster("local[*]")
    # no web UI or console progress bar for a batch CLI; partition values are names (db=007 is a
    # database named "007", not a number) when a session reads the output back
    conf.set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false") \
        .set("spark.sql.sources.partitionColumnTypeInference.enabled", "false") \
        .set("spark.executorEnv.PYTHONSAFEPATH", "1")
    # (PYTHONSAFEPATH, Python 3.11+: a worker does not put its start directory first on sys.path,
    # where a source checkout's bare package would shadow the installed one)
    if hasattr(socket, "AF_UNIX"):
        # Spark 4.1+ (SPARK-51688; ignored before): a JVM talks to its Python workers, and the
        # driver to its JVM, over Unix domain sockets instead of loopback TCP. Over TCP every
        # Python task waited ~40 ms here for the end of its input: a small write held back by
        # Nagle's algorithm until the worker's delayed ACK (a trivial task: 56 ms against 13 ms).
        # (Under spark-submit a --conf that turns it off is kept.)
        conf.setIfMissing("spark.python.unix.domain.socket.enabled", "true")
    archive = dump = None
    if embedded_local(master):
        # An embedded JVM only schedules Python tasks and moves their summaries: its startup is
        # most of what it costs. The client compiler alone and the serial collector start it
        # ~1.3 s sooner here (-XX:TieredStopAtLevel=1: no C2 compiler threads warming up;
        # -XX:+UseSerialGC: no parallel GC threads to create). $MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS
        # replaces them (empty: none, e.g. to keep spark-defaults.conf's).
        jopts = os.environ.get("MYSQLDDL_SPARK_DRIVER_JAVA_OPTIONS", LOCAL_JVM_OPTIONS)
        # Class-data sharing (JDK 13+ dynamic archive, JEP 350): the classes Spark loads to start
        # and to run a first job, mapped from an archive the first run wrote instead of read from
        # ~280 jars and verified again: another ~1.2-1.7 s less here.
        archive = _cds_archive(jopts) if cds else None
        if archive:
            try:
                more, dump = _cds_options(archive)
                jopts = f"{jopts} {more}".strip()
            except OSError:             # a cache directory that cannot be made or listed: none
                archive = None
        if jopts:
            conf.set("spark.driver.extraJavaOptions", jopts)
    return conf, archive, dump


def context(master: str | None = None, *, log_level: str = "FATAL", app: str = "mysqlddl", cds: bool = False):
    """A SparkContext (``master`` as :func:`session`): all :func:`mysqlddl.spark.job.run` needs, as the job schedules
    Python tasks and uses no Spark SQL. The CLI runs on it: a SparkSession's start (the JVM's SQL
    session state) cost another 2.7 s here on a 7 s start.

    ``cds`` (the CLI): an embedded local JVM starts from its class-data archive in
    $MYSQLDDL_SPARK_CDS (default ``~/.cache/mysqlddl``; "off": none); the first start writes it,
    and only :func:`stop` publishes it (the JVM writes it as it exits). A damaged archive makes the
    JVM die as it starts: it is then removed and the JVM started without it."""
    # pyspark (optional, heavy): only when a context is made or stopped
    from pyspark import SparkContext

    conf, archive, dump = _conf(master, app, cds=cds)
    try:
        sc = SparkContext.getOrCreate(conf)
    except Exception:
        if archive is None or dump is not None:
            raise
        try:
            os.unlink(archive)
        except FileNotFoundError:
            pass
        warnings.warn(f"the JVM died starting from its class-data archive {archive}: removed it, starting "
                      f"without it (the JVM's report is in {os.path.dirname(archive)})", RuntimeWarning,
                      stacklevel=2)
        sc = SparkContext.getOrCreate(_conf(master, app)[0])
    else:
        # (getOrCreate may return a context started earlier, without these options)
        if dump is not None and dump[0] in sc.getConf().get("spark.driver.extraJavaOptions", ""):
            _CDS_DUMP.append(dump)
    sc.setLogLevel(log_level)
    return sc


def stop(sc, *, exiting: bool = False) -> str | None:
    """Stop ``sc``, and end its embedded JVM when it is writing a new class-data archive (the first
    ``context(cds=True)``: the JVM writes it as it exits), then publish the archive (an atomic
    rename, only after the JVM exited cleanly: a partly written archive would crash the next JVM).
    Returns the published archive's path.

    ``exiting`` (the CLI, about to end): an embedded JVM is always ended here, and waited for,
    after stopping the context in it, instead of through pyspark's ``sc.stop()``: that waits for
    its accumulator server, whose request loop polls the JVM's connection with 1 s timeouts (0.9 s
    of a 6 s run here). That connection's end, when the JVM exits, is expected then."""
    # pyspark (optional, heavy): only when a context is made or stopped
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    dump = _CDS_DUMP.pop() if _CDS_DUMP else None
    if proc is None or proc.stdin is None:
        sc.stop()
        return None                     # an archive being written is left for a later start to remove
    _end_python_workers(proc.pid)
    server = getattr(sc, "_accumulatorServer", None)
    if exiting and server is not None and getattr(sc, "_jsc", None) is not None:
        sc._jsc.stop()
        server.handle_error = lambda request, client_address: None
        # the rest of what sc.stop() does: this context is done, a later getOrCreate makes another
        sc._jsc = None
        with SparkContext._lock:
            SparkContext._active_spark_context = None
    else:
        sc.stop()
        if dump is None:
            return None
    # The gateway JVM exits at EOF on its stdin (Spark's PythonGatewayServer); a later context in
    # this process starts a new one.
    gateway = SparkContext._gateway
    SparkContext._gateway = SparkContext._jvm = None
    # py4j's threads blocked in socket calls (its server's accept, a read per Python connection)
    # are in native code, and HotSpot's exit waits up to 300 ms at its last safepoint for such
    # threads to stop (VM_Exit::wait_for_threads_in_native_to_block): shutting the gateway down
    # first ends them, and the JVM's exit took 0.07-0.09 s here instead of 0.38-0.39 s.
    try:
        gateway.shutdown()
    except Exception:                   # (a JVM that is gone already: nothing to end)
        pass
    proc.stdin.close()
    try:
        rc = proc.wait(timeout=300)
    except Exception:
        rc = None
    if dump is None:
        return None
    tmp, final = dump
    if rc == 0 and os.path.exists(tmp) and os.path.getsize(tmp) > 0:
        os.replace(tmp, final)
        return final
    if rc is not None and os.path.exists(tmp):
        os.unlink(tmp)
    return None


def _end_python_workers(jvm_pid: int, timeout: float = 2.0) -> None:
    """End the Python worker daemon of the embedded JVM ``jvm_pid`` (its child running
    ``pyspark.daemon``; Linux /proc) the way Spark ends it, SIGTERM: the daemon sends its workers
    SIGHUP, which ends them, and exits. Done before the context stops: stopping it first closes
    the idle workers' sockets and only then ends the daemon, and a worker that saw its socket end
    first reports that, and over a Unix domain socket fails to (EPIPE, where TCP took the write):
    a traceback on stderr. Waits until the daemon is gone (a zombie of the JVM's)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    parent = str(jvm_pid).encode()
    for name in names:
        stat = _proc_stat(name) if name.isdigit() else None
        if stat is None or stat[1] != parent:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if b"pyspark.daemon" not in f.read():
                    continue
            os.kill(int(name), signal.SIGTERM)
        except OSError:
            continue
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            stat = _proc_stat(name)
            if stat is None or stat[0] == b"Z":
                break
            time.sleep(0.005)


def _proc_stat(pid: str) -> list[bytes] | None:
    """/proc/PID/stat's fields after the command name (state, ppid, ...), or None: no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def session(master: str | None = None, *, log_level: str = "FATAL", app: str = "mysqlddl"):
    """A SparkSession on :func:`context` (for reading the output back with Spark): ``master`` when
    given; under spark-submit (a gateway is already up) the one it configured; else an embedded
    ``local[*]``. Local workers run this interpreter."""
    # pyspark (optional, heavy): only when a session is made
    from pyspark.sql import SparkSession

    context(master, log_level=log_level, app=app)
    return SparkSession.builder.getOrCreate()


def embedded_local(master: str | None) -> bool:
    """The job will start its own local JVM (no spark-submit gateway, a local master)."""
    return (master or "local").startswith("local") and "PYSPARK_GATEWAY_PORT" not in os.environ

