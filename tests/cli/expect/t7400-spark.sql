-- pathstat export, schema 1: Spark SQL over s3://bucket/prefix
-- samples, runs and summaries are partitioned by day
-- run them all again after an export that adds a partition: MSCK REPAIR TABLE loads it

CREATE DATABASE IF NOT EXISTS pathstat;

CREATE TABLE IF NOT EXISTS pathstat.samples (
  `run_id` STRING,
  `path` STRING,
  `condition` STRING,
  `trial` BIGINT,
  `tool` STRING,
  `metric` STRING,
  `seq` BIGINT,
  `t_us` BIGINT,
  `value` DOUBLE,
  `status` STRING,
  `p` STRING,
  `az` STRING,
  `c` STRING,
  `hour` STRING,
  `instance_type` STRING,
  `ka` STRING,
  `month` STRING,
  `proto` STRING,
  `region` STRING,
  `size` STRING,
  `study` STRING,
  `via` STRING,
  `week` STRING,
  `day` STRING
)
USING PARQUET
PARTITIONED BY (`day`)
LOCATION 's3://bucket/prefix/samples';
MSCK REPAIR TABLE pathstat.samples;

CREATE TABLE IF NOT EXISTS pathstat.runs (
  `run_id` STRING,
  `path` STRING,
  `condition` STRING,
  `trial` BIGINT,
  `tool` STRING,
  `metric` STRING,
  `started_at` TIMESTAMP,
  `status` STRING,
  `reason` STRING,
  `samples` BIGINT,
  `failures` BIGINT,
  `attempts` BIGINT,
  `tags` STRING,
  `file` STRING,
  `file_hash` STRING,
  `file_kind` STRING,
  `tool_version` STRING,
  `summary_file` STRING,
  `summary_file_hash` STRING,
  `p` STRING,
  `az` STRING,
  `c` STRING,
  `hour` STRING,
  `instance_type` STRING,
  `ka` STRING,
  `month` STRING,
  `proto` STRING,
  `region` STRING,
  `size` STRING,
  `study` STRING,
  `via` STRING,
  `week` STRING,
  `day` STRING
)
USING PARQUET
PARTITIONED BY (`day`)
LOCATION 's3://bucket/prefix/runs';
MSCK REPAIR TABLE pathstat.runs;

CREATE TABLE IF NOT EXISTS pathstat.summaries (
  `run_id` STRING,
  `path` STRING,
  `condition` STRING,
  `trial` BIGINT,
  `tool` STRING,
  `metric` STRING,
  `stat` STRING,
  `value` DOUBLE,
  `estimator` STRING,
  `file` STRING,
  `p` STRING,
  `az` STRING,
  `c` STRING,
  `hour` STRING,
  `instance_type` STRING,
  `ka` STRING,
  `month` STRING,
  `proto` STRING,
  `region` STRING,
  `size` STRING,
  `study` STRING,
  `via` STRING,
  `week` STRING,
  `day` STRING
)
USING PARQUET
PARTITIONED BY (`day`)
LOCATION 's3://bucket/prefix/summaries';
MSCK REPAIR TABLE pathstat.summaries;

CREATE TABLE IF NOT EXISTS pathstat.findings (
  `check` STRING,
  `severity` STRING,
  `metric` STRING,
  `path` STRING,
  `condition` STRING,
  `trial` BIGINT,
  `scope` STRING,
  `run_ids` STRING,
  `files` STRING,
  `evidence` STRING,
  `cause` STRING,
  `action` STRING
)
USING PARQUET
LOCATION 's3://bucket/prefix/findings';

