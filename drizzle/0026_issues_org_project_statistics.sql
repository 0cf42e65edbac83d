-- The issue list's total counts a project's issues; the planner read organization_id and project_id
-- as independent and estimated a fifth of the pair's rows, so it planned a bitmap heap scan that
-- decoded every row to its last column (deletion_id) instead of reading the last-seen index
-- (bench/README.md, "bench:queries after issue 35's first part"). A project lies in one
-- organization: these statistics tell the planner so.
CREATE STATISTICS IF NOT EXISTS "issues_org_project_stats" (dependencies, ndistinct) ON "organization_id", "project_id" FROM "issues";
