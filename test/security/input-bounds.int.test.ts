/**
 * Battery K1 and K3 on the product API (tRPC and /api/v1), request by request over HTTP:
 * - K3, work proportional to unchecked input: date ranges, page numbers, sort strings and filter
 *   lists are bounded in the shared zod inputs (or counted before any work), so a request that
 *   names 3.65 million days or page 10^15 is a 400, not seconds of a blocked event loop;
 * - K1, values outside what the database holds (NUL in text, years 0 and 99999, 2026-02-30)
 *   answer 400 with a message that names the field, never 500;
 * - lengths of what members type into projects, with the forms' messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { triageTenant } from "../helpers/triage-seed";

describe("input bounds of the product API (battery K1, K3)", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof triageTenant>>;
  const project = () => `/api/v1/organizations/${tenant.org.id}/projects/${tenant.project.id}`;
  const rest = (path: string) => tenant.session.request(`${project()}${path}`);
  const expect400 = async (path: string, message: string) => {
    const response = await rest(path);
    expect(response.status, `${path}: ${response.text}`).toBe(400);
    expect(response.body.error.code).toBe("VALIDATION_ERROR");
    expect(response.body.error.message).toContain(message);
  };
  const trpcError = async (path: string, input: Record<string, unknown>) => {
    const { error } = await tenant.session.query(path, { projectId: tenant.project.id, ...input });
    expect(error?.code, JSON.stringify(error)).toBe("BAD_REQUEST");
    return error!.message;
  };

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await triageTenant(server, "Bounds");
  });
  afterAll(() => server.close());

  describe("daily statistics", () => {
    const daily = (from: string, to: string) => `/exceptions/statistics/daily?from=${from}&to=${to}`;

    it("refuses years before 1970 or past 9999 before counting a single day", async () => {
      // 0000-01-01..9999-12-31 used to build 3.65 million day strings, then refuse the range.
      await expect400(daily("0000-01-01", "9999-12-31"), "from: 0000-01-01 is not a date between 1970-01-01 and 9999-12-31");
      await expect400(daily("0000-01-01", "0000-01-02"), "between 1970-01-01 and 9999-12-31");
      await expect400(daily("2026-01-01", "99999-01-01"), "to: must be a date like 2026-11-21");
      expect(await trpcError("stats.daily", { from: "0000-01-01", to: "9999-12-31" })).toContain("between 1970-01-01 and 9999-12-31");
    });

    it("refuses an over-long range by counting it, with the range's length in the message", async () => {
      const response = await rest(daily("1970-01-01", "9999-12-31"));
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe("The range spans 2932897 days; at most 366 days are allowed");
      expect((await rest(daily("1970-01-01", "1970-01-01"))).body).toEqual([{ date: "1970-01-01", count: 0 }]);
    });

    it("refuses days that do not exist", async () => {
      await expect400(daily("2026-13-01", "2026-12-31"), "from: 2026-13-01 is not a calendar day");
      await expect400(daily("2026-01-01", "2026-02-29"), "to: 2026-02-29 is not a calendar day");
    });
  });

  describe("list filters", () => {
    it("refuses NUL in the issue search and the event name with 400, not a database error", async () => {
      await expect400("/issues?query=a%00b", "query: must not contain the NUL character (U+0000)");
      await expect400("/events?name=a%00b", "name: must not contain the NUL character (U+0000)");
      expect(await trpcError("issue.list", { query: "a\u0000b" })).toContain("NUL");
      expect(await trpcError("event.list", { name: "\u0000" })).toContain("NUL");
    });

    it("refuses dates of year 0, year 99999, impossible days and non-ISO text", async () => {
      await expect400("/issues?dateFrom=0000-01-01", "dateFrom: must be a date between 1970-01-01 and 9999-12-31");
      await expect400("/issues?dateTo=99999-01-01T00:00:00Z", "dateTo: must be a parseable date");
      await expect400("/issues?dateFrom=-271821-04-20", "dateFrom: must be a parseable date");
      await expect400("/issues?dateFrom=2026-02-30", "dateFrom: must be a parseable date");
      // V8 reads "1" as 2001-01-01; a filter should not guess.
      await expect400("/issues?dateFrom=1", "dateFrom: must be a parseable date");
      await expect400("/events?dateTo=99999-01-01", "dateTo: must be a parseable date");
      await expect400("/events?dateFrom=1969-12-31T23:59:59Z", "dateFrom: must be a date between 1970-01-01 and 9999-12-31");
      expect(await trpcError("issue.list", { dateFrom: new Date("0000-01-01T00:00:00Z") })).toContain("between 1970-01-01 and 9999-12-31");
      expect(await trpcError("event.list", { dateTo: new Date(Date.UTC(99999, 0, 1)) })).toContain("between 1970-01-01 and 9999-12-31");
    });

    it("still takes ISO days and date-times with an offset", async () => {
      for (const query of ["?dateFrom=2026-01-01", "?dateFrom=2026-01-01T10:00:00.123%2B02:00&dateTo=9999-12-31T23:59:59.999Z", "?dateTo=1970-01-01T00:00Z"]) {
        const response = await rest(`/issues${query}`);
        expect(response.status, `${query}: ${response.text}`).toBe(200);
      }
      expect((await tenant.session.query("issue.list", { projectId: tenant.project.id, dateFrom: new Date() })).error).toBeUndefined();
    });

    it("bounds page numbers, sort strings and repeated filter values", async () => {
      await expect400("/issues?page=1e15", "page: page must be at most 1000");
      await expect400("/exceptions?page=1001", "page: page must be at most 1000");
      await expect400("/events?page=99999999999", "page: page must be at most 1000");
      expect((await rest("/issues?page=1000")).body.meta.currentPage).toBe(1000);
      await expect400(`/issues?sort=${Array(400).fill("title:ASC").join(",")}`, "sort: sort must be at most 200 characters");
      await expect400(`/issues?status=${Array(21).fill("OPEN").join(",")}`, "status: at most 20 values");
      await expect400(`/exceptions/statistics/daily?from=2026-01-01&to=2026-01-02&${Array(21).fill("environments=STAGING").join("&")}`, "at most 20 values");
      expect(await trpcError("issue.list", { page: 10 ** 15 })).toContain("page must be at most 1000");
    });
  });

  it("bounds the calls of one tRPC batch", async () => {
    const batch = (count: number) => tenant.session.request(`/api/trpc/${Array(count).fill("config.get").join(",")}?batch=1&input=${encodeURIComponent("{}")}`);
    const refused = await batch(11);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain("Batch call exceeds maximum size");
    const fine = await batch(10);
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body).toHaveLength(10);
  });

  describe("projects", () => {
    const create = (body: Record<string, unknown>) =>
      tenant.session.request(`/api/v1/organizations/${tenant.org.id}/projects`, { body: { platform: "NODE_JS", ...body } });

    it("limits names, descriptions and key labels, and refuses NUL in them", async () => {
      const long = await create({ name: "x".repeat(101) });
      expect(long.status).toBe(400);
      expect(long.body.error.message).toBe("name: Project names are at most 100 characters");
      const nul = await create({ name: "a\u0000b" });
      expect(nul.status, nul.text).toBe(400);
      expect(nul.body.error.message).toBe("name: must not contain the NUL character (U+0000)");
      expect((await create({ name: "ok", description: "d".repeat(501) })).body.error.message).toBe("description: Descriptions are at most 500 characters");
      expect((await create({ name: "ok", description: "\u0000" })).status).toBe(400);
      expect((await create({ name: "x".repeat(100) })).status).toBe(201);

      const renamed = await tenant.session.mutation("project.rename", { projectId: tenant.project.id, name: "fine", description: "x".repeat(501) });
      expect(renamed.error?.code).toBe("BAD_REQUEST");
      expect(renamed.error?.message).toContain("Descriptions are at most 500 characters");
      const label = await tenant.session.mutation("project.createKey", { projectId: tenant.project.id, label: "ci\u0000" });
      expect(label.error?.code).toBe("BAD_REQUEST");
      expect(label.error?.message).toContain("NUL");
    });
  });
});
