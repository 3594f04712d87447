-- pathstat export, schema 1: Trino, Hive connector over s3://bucket/prefix
-- samples, runs and summaries are partitioned by day
-- run in the catalog of the Hive connector (trino --catalog hive)
-- run them all again after an export that adds a partition: sync_partition_metadata loads it

CREATE SCHEMA IF NOT EXISTS pathstat;

CREATE TABLE IF NOT EXISTS pathstat.samples (
  "run_id" varchar,
  "path" varchar,
  "condition" varchar,
  "trial" bigint,
  "tool" varchar,
  "metric" varchar,
  "seq" bigint,
  "t_us" bigint,
  "value" double,
  "status" varchar,
  "p" varchar,
  "az" varchar,
  "c" varchar,
  "hour" varchar,
  "instance_type" varchar,
  "ka" varchar,
  "month" varchar,
  "proto" varchar,
  "region" varchar,
  "size" varchar,
  "study" varchar,
  "via" varchar,
  "week" varchar,
  "day" varchar
)
WITH (
  format = 'PARQUET',
  external_location = 's3://bucket/prefix/samples',
  partitioned_by = ARRAY['day']
);
CALL system.sync_partition_metadata('pathstat', 'samples', 'FULL');

CREATE TABLE IF NOT EXISTS pathstat.runs (
  "run_id" varchar,
  "path" varchar,
  "condition" varchar,
  "trial" bigint,
  "tool" varchar,
  "metric" varchar,
  "started_at" timestamp,
  "status" varchar,
  "reason" varchar,
  "samples" bigint,
  "failures" bigint,
  "attempts" bigint,
  "tags" varchar,
  "file" varchar,
  "file_hash" varchar,
  "file_kind" varchar,
  "tool_version" varchar,
  "summary_file" varchar,
  "summary_file_hash" varchar,
  "p" varchar,
  "az" varchar,
  "c" varchar,
  "hour" varchar,
  "instance_type" varchar,
  "ka" varchar,
  "month" varchar,
  "proto" varchar,
  "region" varchar,
  "size" varchar,
  "study" varchar,
  "via" varchar,
  "week" varchar,
  "day" varchar
)
WITH (
  format = 'PARQUET',
  external_location = 's3://bucket/prefix/runs',
  partitioned_by = ARRAY['day']
);
CALL system.sync_partition_metadata('pathstat', 'runs', 'FULL');

CREATE TABLE IF NOT EXISTS pathstat.summaries (
  "run_id" varchar,
  "path" varchar,
  "condition" varchar,
  "trial" bigint,
  "tool" varchar,
  "metric" varchar,
  "stat" varchar,
  "value" double,
  "estimator" varchar,
  "file" varchar,
  "p" varchar,
  "az" varchar,
  "c" varchar,
  "hour" varchar,
  "instance_type" varchar,
  "ka" varchar,
  "month" varchar,
  "proto" varchar,
  "region" varchar,
  "size" varchar,
  "study" varchar,
  "via" varchar,
  "week" varchar,
  "day" varchar
)
WITH (
  format = 'PARQUET',
  external_location = 's3://bucket/prefix/summaries',
  partitioned_by = ARRAY['day']
);
CALL system.sync_partition_metadata('pathstat', 'summaries', 'FULL');

CREATE TABLE IF NOT EXISTS pathstat.findings (
  "check" varchar,
  "severity" varchar,
  "metric" varchar,
  "path" varchar,
  "condition" varchar,
  "trial" bigint,
  "scope" varchar,
  "run_ids" varchar,
  "files" varchar,
  "evidence" varchar,
  "cause" varchar,
  "action" varchar
)
WITH (
  format = 'PARQUET',
  external_location = 's3://bucket/prefix/findings'
);

