"""The Spark job: archived binlogs re-parsed on Spark into change events as Parquet
(``mysqlddl spark``; mysqlddl[spark]). The only package that imports pyspark, and only lazily:
importing any module here, as the CLI does, loads neither pyspark nor pyarrow.

- :mod:`.job`: the job's driver: the stages, the history's broadcast, the summary; its
  ``python -m`` / spark-submit entry point.
- :mod:`.tasks`: what the executors' Python workers run (pre-scan, decode, warm-up) and the
  typed errors they carry back to the driver.
- :mod:`.launcher`: the SparkConf, the embedded local JVM's start (options, class-data archive)
  and end (its Python worker daemon first), a SparkSession for reading the output back.
- :mod:`.ranges`: the pure parts, run in executors and in the driver without Spark: the pre-scan,
  the schema history built from it, the byte ranges cut at transaction boundaries.

The writers are not here: a decode task writes through the sink interface, with the Arrow sink
(:mod:`mysqlddl.sinks.arrow`) building the batches and :mod:`mysqlddl.sinks.parquet` writing the
files (the typed per-table datasets' types: :mod:`mysqlddl.sinks.typed`), the sinks the CLI uses too.
"""
