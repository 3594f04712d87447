# t3844: the page's footer names the spec by its file name, not the
# absolute path it was given as (a published page does not show the
# author's folders); provenance.json keeps the path, to run it again.

export SOURCE_DATE_EPOCH=1796000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
mkdir -p home/someone/specs
cp "$TOP/samples/article.json" home/someone/specs/article.json
run "$PS" report --db s.db --spec "$PWD/home/someone/specs/article.json" --out b --no-render
expect_code 0 "report with a spec given by its absolute path ($ERR)"
ok 'grep -q "from the spec .article\.json. and a database" b/index.md' "the footer names article.json"
ok '! grep -q "home/someone" b/index.md' "and no folder of the author's"
ok 'grep -q "home/someone/specs/article.json" b/provenance.json' "provenance.json keeps the path"
test_done
