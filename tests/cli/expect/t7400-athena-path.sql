-- pathstat export, schema 1: Amazon Athena (engine v3) over s3://bucket/prefix
-- samples, runs and summaries are partitioned by path
-- run one statement per query (Athena's console or 'aws athena start-query-execution')

CREATE DATABASE IF NOT EXISTS pathstat;

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.samples (
  `run_id` string,
  `condition` string,
  `trial` bigint,
  `tool` string,
  `metric` string,
  `seq` bigint,
  `t_us` bigint,
  `value` double,
  `status` string,
  `p` string,
  `az` string,
  `c` string,
  `day` string,
  `hour` string,
  `instance_type` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`path` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/samples/';
-- no partition projection (a partition lacks a key, or a value needs escaping):
-- load the partitions, and again after each export that adds one
MSCK REPAIR TABLE pathstat.samples;

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.runs (
  `run_id` string,
  `condition` string,
  `trial` bigint,
  `tool` string,
  `metric` string,
  `started_at` timestamp,
  `status` string,
  `reason` string,
  `samples` bigint,
  `failures` bigint,
  `attempts` bigint,
  `tags` string,
  `file` string,
  `file_hash` string,
  `file_kind` string,
  `tool_version` string,
  `summary_file` string,
  `summary_file_hash` string,
  `p` string,
  `az` string,
  `c` string,
  `day` string,
  `hour` string,
  `instance_type` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`path` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/runs/';
-- no partition projection (a partition lacks a key, or a value needs escaping):
-- load the partitions, and again after each export that adds one
MSCK REPAIR TABLE pathstat.runs;

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.summaries (
  `run_id` string,
  `condition` string,
  `trial` bigint,
  `tool` string,
  `metric` string,
  `stat` string,
  `value` double,
  `estimator` string,
  `file` string,
  `p` string,
  `az` string,
  `c` string,
  `day` string,
  `hour` string,
  `instance_type` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`path` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/summaries/';
-- no partition projection (a partition lacks a key, or a value needs escaping):
-- load the partitions, and again after each export that adds one
MSCK REPAIR TABLE pathstat.summaries;

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.findings (
  `check` string,
  `severity` string,
  `metric` string,
  `path` string,
  `condition` string,
  `trial` bigint,
  `scope` string,
  `run_ids` string,
  `files` string,
  `evidence` string,
  `cause` string,
  `action` string
)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/findings/';

