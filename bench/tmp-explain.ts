import postgres from "postgres";
const url = process.argv[2];
const client = postgres(url, { max: 1, onnotice: () => {} });
const [{ org, project }] = await client`select organization_id as org, id as project from projects where name = 'bench-queries'`;
const [{ id: largest }] = await client`select id from issues where project_id = ${project} order by event_count desc limit 1`;
const q = (s: string) => s.replaceAll(":org", `'${org}'`).replaceAll(":project", `'${project}'::uuid`).replaceAll(":largest", `'${largest}'::uuid`);
const queries: Record<string, string> = {
  query: `select id from issues where organization_id = :org and project_id = :project and (title ilike '%module 42%' or culprit ilike '%module 42%' or exists (select 1 from occurrences o where o.organization_id = :org and o.project_id = :project and o.id = issues.last_occurrence_id and o.message ilike '%module 42%')) order by last_seen desc, id desc limit 20`,
  queryCount: `select count(*) from issues where organization_id = :org and project_id = :project and (title ilike '%module 42%' or culprit ilike '%module 42%' or exists (select 1 from occurrences o where o.organization_id = :org and o.project_id = :project and o.id = issues.last_occurrence_id and o.message ilike '%module 42%'))`,
  envCount: `select count(*) from issues where organization_id = :org and project_id = :project and exists (select 1 from issue_daily_counts d where d.organization_id = :org and d.project_id = :project and d.issue_id = issues.id and d.environment in ('DEVELOPMENT'))`,
  exceptions: `select id from occurrences where organization_id = :org and project_id = :project and issue_id = :largest order by received_at desc, id desc limit 10`,
  daily: `select day, sum(count) from issue_daily_counts where organization_id = :org and project_id = :project and day between current_date - 29 and current_date group by day`,
};
for (const [name, text] of Object.entries(queries)) {
  const rows = await client.unsafe(`explain (analyze, buffers) ${q(text)}`);
  console.log(`== ${name}\n` + rows.map((r: any) => r["QUERY PLAN"]).join("\n"));
}
await client.end();
