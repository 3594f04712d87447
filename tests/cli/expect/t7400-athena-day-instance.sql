-- pathstat export, schema 1: Amazon Athena (engine v3) over s3://bucket/prefix
-- samples, runs and summaries are partitioned by day, instance_type
-- run one statement per query (Athena's console or 'aws athena start-query-execution')

CREATE DATABASE IF NOT EXISTS pathstat;

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.samples (
  `run_id` string,
  `path` string,
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
  `hour` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`day` string, `instance_type` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/samples/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.day.type' = 'date',
  'projection.day.format' = 'yyyy-MM-dd',
  'projection.day.range' = '2026-08-28,NOW',
  'projection.day.interval' = '1',
  'projection.day.interval.unit' = 'DAYS',
  'projection.instance_type.type' = 'enum',
  'projection.instance_type.values' = 'c6i.large,c7g.xlarge',
  'storage.location.template' = 's3://bucket/prefix/samples/day=${day}/instance_type=${instance_type}/'
);

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.runs (
  `run_id` string,
  `path` string,
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
  `hour` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`day` string, `instance_type` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/runs/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.day.type' = 'date',
  'projection.day.format' = 'yyyy-MM-dd',
  'projection.day.range' = '2026-08-28,NOW',
  'projection.day.interval' = '1',
  'projection.day.interval.unit' = 'DAYS',
  'projection.instance_type.type' = 'enum',
  'projection.instance_type.values' = 'c6i.large,c7g.xlarge',
  'storage.location.template' = 's3://bucket/prefix/runs/day=${day}/instance_type=${instance_type}/'
);

CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.summaries (
  `run_id` string,
  `path` string,
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
  `hour` string,
  `ka` string,
  `month` string,
  `proto` string,
  `region` string,
  `size` string,
  `study` string,
  `via` string,
  `week` string
)
PARTITIONED BY (`day` string, `instance_type` string)
STORED AS PARQUET
LOCATION 's3://bucket/prefix/summaries/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.day.type' = 'date',
  'projection.day.format' = 'yyyy-MM-dd',
  'projection.day.range' = '2026-08-28,NOW',
  'projection.day.interval' = '1',
  'projection.day.interval.unit' = 'DAYS',
  'projection.instance_type.type' = 'enum',
  'projection.instance_type.values' = 'c6i.large,c7g.xlarge',
  'storage.location.template' = 's3://bucket/prefix/summaries/day=${day}/instance_type=${instance_type}/'
);

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

