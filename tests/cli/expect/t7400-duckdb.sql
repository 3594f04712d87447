-- pathstat export, schema 1: DuckDB over s3://bucket/prefix
-- samples, runs and summaries are partitioned by day
-- s3:// needs the httpfs extension and credentials:
INSTALL httpfs;
LOAD httpfs;
CREATE SECRET IF NOT EXISTS pathstat_s3 (TYPE s3, PROVIDER credential_chain);

CREATE OR REPLACE VIEW samples AS
SELECT * FROM read_parquet('s3://bucket/prefix/samples/**/*.parquet',
    hive_partitioning = true, hive_types = {'day': VARCHAR},
    union_by_name = true);

CREATE OR REPLACE VIEW runs AS
SELECT * FROM read_parquet('s3://bucket/prefix/runs/**/*.parquet',
    hive_partitioning = true, hive_types = {'day': VARCHAR},
    union_by_name = true);

CREATE OR REPLACE VIEW summaries AS
SELECT * FROM read_parquet('s3://bucket/prefix/summaries/**/*.parquet',
    hive_partitioning = true, hive_types = {'day': VARCHAR},
    union_by_name = true);

CREATE OR REPLACE VIEW findings AS
SELECT * FROM read_parquet('s3://bucket/prefix/findings/*.parquet',
    hive_partitioning = false,
    union_by_name = true);

