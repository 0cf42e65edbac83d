import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPglitePreparedRunner } from "./pglite-prepared";

describe("PGlite prepared statements", () => {
  let client: PGlite;
  let run: ReturnType<typeof createPglitePreparedRunner>;
  beforeAll(async () => {
    client = new PGlite();
    await client.exec("create table notes (id int primary key, body text, doc json)");
    run = createPglitePreparedRunner(client);
  });
  afterAll(() => client.close());

  it("parses a statement once and answers typed rows on every call", async () => {
    const insert = "insert into notes (id, body, doc) values ($1, $2, $3::json) returning id, body, doc, doc ->> 'k' as k";
    expect(await run(insert, [1, 'ünï \u001e "q"', '{"k":"v1"}'])).toEqual([{ id: 1, body: 'ünï \u001e "q"', doc: { k: "v1" }, k: "v1" }]);
    expect(await run(insert, [2, null, '{"k":"v2"}'])).toEqual([{ id: 2, body: null, doc: { k: "v2" }, k: "v2" }]);
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where statement = $1", [insert]);
    expect(rows[0].n).toBe(1);
  });

  it("raises PostgreSQL's error with its code and keeps working afterwards", async () => {
    const insert = "insert into notes (id, body) values ($1, $2)";
    await run(insert, [10, "first"]);
    await expect(run(insert, [10, "again"])).rejects.toMatchObject({ code: "23505" });
    await run(insert, [11, "after the error"]);
    const { rows } = await client.query("select body from notes where id = 11");
    expect(rows).toEqual([{ body: "after the error" }]);
  });

  it("can prepare again after a statement PostgreSQL refused", async () => {
    await expect(run("selec 1", [])).rejects.toMatchObject({ code: "42601" });
    expect(await run("select 2 as two", [])).toEqual([{ two: 2 }]);
  });

  it("waits for an open transaction instead of joining it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into notes (id, body) values (20, 'rolled back')");
      entered();
      await held;
      await tx.rollback();
    });
    await inside;
    let done = false;
    const prepared = run("insert into notes (id, body) values ($1, $2)", [21, "committed"]).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    release();
    await Promise.all([transaction, prepared]);
    const { rows } = await client.query("select id from notes where id in (20, 21) order by id");
    expect(rows).toEqual([{ id: 21 }]);
  });
});
