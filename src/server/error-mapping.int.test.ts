import { TRPCError } from "@trpc/server";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startProbeApp, type ProbeApp } from "../../test/helpers/probe-app";
import { startTestServer, type TestServer } from "../../test/helpers/test-server";
import { createOrganization, signUpVerified } from "../../test/helpers/test-users";
import { callerFor, type RouterInputs, type RouterOutputs } from "../../test/helpers/trpc-caller";
import { createRequestContext } from "./context";
import { AppError, APP_ERROR_STATUS, type AppErrorCode } from "./errors";
import { publicProcedure, router } from "./trpc/init";

const CODES = Object.keys(APP_ERROR_STATUS) as AppErrorCode[];
const FailInput = z.object({ code: z.enum(CODES as [AppErrorCode, ...AppErrorCode[]]) });
const failure = (code: AppErrorCode) => new AppError(code, `Failed with ${code}`, { hint: code });

const Profile = z.object({ name: z.string().min(2, "Name is too short"), tags: z.array(z.string().max(3)) });
const BAD_PROFILE = { name: "x", tags: ["ok", "too long"] };

/** A service that validates what it is handed itself, as a verb reading stored JSON would. */
async function serviceThatParses(raw: unknown) {
  return Profile.parse(raw);
}

/** Test-only twins over the real mappers: the codes the next features throw have no product route yet. */
const probeRouter = router({
  fail: publicProcedure.input(FailInput).query(({ input }) => {
    throw failure(input.code);
  }),
  profile: publicProcedure.input(Profile).mutation(({ input }) => input),
  profileInService: publicProcedure.mutation(() => serviceThatParses(BAD_PROFILE)),
});

describe("one error family on both transports", () => {
  let server: TestServer;
  let probe: ProbeApp;
  beforeAll(async () => {
    server = await startTestServer();
    probe = await startProbeApp((app) => {
      app.use("/api/trpc", createExpressMiddleware({ router: probeRouter, createContext: ({ req }) => createRequestContext(server.services, req) }));
      app.get("/fail/:code", (req) => {
        throw failure(FailInput.parse(req.params).code);
      });
      app.post("/profile", (req, res) => {
        res.json(Profile.parse(req.body));
      });
      app.post("/profile-in-service", async (_req, res) => {
        res.json(await serviceThatParses(BAD_PROFILE));
      });
    });
  });
  afterAll(async () => {
    await probe.close();
    await server.close();
  });

  it("answers every domain code with the same status, code, message and details", async () => {
    const session = probe.as();
    for (const code of CODES) {
      const rest = await session.request(`/fail/${code}`);
      const trpc = await session.query("fail", { code });
      expect(rest.status, code).toBe(APP_ERROR_STATUS[code]);
      expect(rest.body.error, code).toEqual({ code, message: `Failed with ${code}`, details: { hint: code }, requestId: rest.headers.get("x-request-id") });
      expect(trpc.status, code).toBe(APP_ERROR_STATUS[code]);
      expect(trpc.error, code).toMatchObject({ appCode: code, message: `Failed with ${code}`, details: { hint: code }, httpStatus: APP_ERROR_STATUS[code] });
    }
  });

  it("tells a missing plan (402) and upstream failures (502, 503) apart on tRPC too", async () => {
    const session = probe.as();
    expect((await session.query("fail", { code: "PAYMENT_REQUIRED" })).error).toMatchObject({ code: "PAYMENT_REQUIRED", httpStatus: 402 });
    expect((await session.query("fail", { code: "BAD_GATEWAY" })).error).toMatchObject({ code: "BAD_GATEWAY", httpStatus: 502 });
    expect((await session.query("fail", { code: "SERVICE_UNAVAILABLE" })).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503 });
    // An unknown code is bad input like any other, not a 500.
    const unknown = await session.request("/fail/TEAPOT");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("reports invalid input with one code and one issue list, whether zod ran in the adapter or in a service", async () => {
    const session = probe.as();
    const issues = [
      { path: "name", message: "Name is too short" },
      { path: "tags.1", message: "Too big: expected string to have <=3 characters" },
    ];
    const message = "name: Name is too short; tags.1: Too big: expected string to have <=3 characters";
    const answers = [await session.request("/profile", { body: BAD_PROFILE }), await session.request("/profile-in-service", { method: "POST", body: {} })];
    for (const rest of answers) {
      expect(rest.status).toBe(400);
      expect(rest.body.error).toMatchObject({ code: "VALIDATION_ERROR", message, details: { issues } });
    }
    for (const trpc of [await session.mutation("profile", BAD_PROFILE), await session.mutation("profileInService")]) {
      expect(trpc.status).toBe(400);
      expect(trpc.error).toEqual({ code: "BAD_REQUEST", appCode: "VALIDATION_ERROR", httpStatus: 400, message, details: { issues } });
    }
  });

  it("gives a product route's invalid input the same issues over REST and tRPC", async () => {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session);
    const input = { name: "", platform: "COBOL" };
    const rest = await session.request(`/api/v1/organizations/${org.id}/projects`, { body: input });
    const trpc = await session.mutation("project.create", input);
    expect(rest.status).toBe(400);
    expect(rest.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["name", "platform"]);
    expect(trpc.error).toMatchObject({ appCode: rest.body.error.code, message: rest.body.error.message, details: rest.body.error.details });
  });

  it("drives procedures through a typed caller over the real request context", async () => {
    const { session } = await signUpVerified(server);
    const org = await createOrganization(session, "Typed");
    const caller = await callerFor(server, session);
    const input: RouterInputs["project"]["create"] = { name: "Typed API", platform: "NODE_JS" };
    const created: RouterOutputs["project"]["create"] = await caller.project.create(input);
    expect(created.organizationId).toBe(org.id);
    expect((await caller.project.list()).map((project) => project.id)).toEqual([created.id]);

    const invalid = await caller.project.create({ ...input, name: "" }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(TRPCError);
    expect((invalid as TRPCError).cause).toMatchObject({ code: "VALIDATION_ERROR", details: { issues: [{ path: "name" }] } });

    const anonymous = await callerFor(server);
    await expect(anonymous.project.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
