reindex of demo: command reindex-demo-20261123-082715-a060b345
[....................]   0%  0/62,989 docs  0 docs/s  RUNNING
{
  "commandId" : "reindex-demo-20261123-082715-a060b345",
  "action" : "reindex",
  "repository" : "demo",
  "state" : "RUNNING",
  "total" : 62989,
  "processed" : 0,
  "skipped" : 0,
  "errors" : 0,
  "ranges" : {
    "total" : 0,
    "processed" : 0,
    "failed" : 0,
    "failedRanges" : [ ]
  },
  "submitted" : "2026-11-23T08:27:15.489Z",
  "started" : "2026-11-23T08:27:18.096Z",
  "completed" : null,
  "docsPerSecond" : 0.0,
  "jobId" : "806aa0f9aecf66543139904d5603effe",
  "index" : "volumizer-demo.20261123-082718004",
  "previousIndex" : "volumizer-demo.20261123-082433830"
}
[############........]  60%  38,000/62,989 docs  898 docs/s ETA 28s  RUNNING
[###################.]  96%  61,000/62,989 docs  1,279 docs/s ETA 2s  RUNNING
[####################] 100%  62,989/62,989 docs  1,190 docs/s  RUNNING
[####################] 100%  62,989/62,989 docs  1,150 docs/s  COMPLETED
{
  "commandId" : "reindex-demo-20261123-082715-a060b345",
  "action" : "reindex",
  "repository" : "demo",
  "state" : "COMPLETED",
  "total" : 62989,
  "processed" : 62989,
  "skipped" : 0,
  "errors" : 0,
  "ranges" : {
    "total" : 63,
    "processed" : 63,
    "failed" : 0,
    "failedRanges" : [ ]
  },
  "submitted" : "2026-11-23T08:27:15.489Z",
  "started" : "2026-11-23T08:27:18.096Z",
  "completed" : "2026-11-23T08:28:12.854Z",
  "docsPerSecond" : 1150.3,
  "jobId" : "806aa0f9aecf66543139904d5603effe",
  "index" : "volumizer-demo.20261123-082718004",
  "previousIndex" : "volumizer-demo.20261123-082433830"
}
