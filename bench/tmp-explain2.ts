import postgres from "postgres";
const url = process.argv[2];
const client = postgres(url, { max: 1, onnotice: () => {} });
const [{ org, project }] = await client`select organization_id as org, id as project from projects where name = 'bench-queries'`;
const [{ id: largest }] = await client`select id from issues where project_id = ${project} order by event_count desc limit 1`;
const q = (s: string) => s.replaceAll(":org", `'${org}'`).replaceAll(":project", `'${project}'::uuid`).replaceAll(":largest", `'${largest}'::uuid`);
for (const setup of (process.env.SETUP ?? "").split(";").filter(Boolean)) await client.unsafe(setup);
const queries: Record<string, string> = JSON.parse(process.env.QUERIES!);
for (const [name, text] of Object.entries(queries)) {
  for (let i = 0; i < 5; i++) await client.unsafe(q(text));
  const times: number[] = [];
  for (let i = 0; i < 20; i++) { const s = performance.now(); await client.unsafe(q(text)); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(20), "p50", times[10].toFixed(1), "max", times[19].toFixed(1));
  if (process.env.PLAN) console.log((await client.unsafe(`explain (analyze) ${q(text)}`)).map((r: any) => r["QUERY PLAN"]).join("\n"));
}
await client.end();
