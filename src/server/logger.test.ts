import { describe, expect, it } from "vitest";
import { createLogger, redact, Verbatim } from "./logger";

describe("log redaction", () => {
  it("filters one-time tokens in account links, in the query and in the path", () => {
    expect(redact("https://f.example/api/auth/verify-email?token=eyJabc.def&callbackURL=%2Fdashboard")).toBe(
      "https://f.example/api/auth/verify-email?token=[Filtered]&callbackURL=[Filtered]",
    );
    expect(redact("https://f.example/api/auth/reset-password/AbC123xyz?callbackURL=%2Freset")).toBe(
      "https://f.example/api/auth/reset-password/[Filtered]?callbackURL=[Filtered]",
    );
    expect(redact("/api/auth/delete-user/callback?token=t0k&x=1")).toBe("/api/auth/delete-user/callback?token=[Filtered]&x=1");
    expect(redact("https://f.example/dashboard/invites?invitationId=0b7c")).toBe("https://f.example/dashboard/invites?invitationId=[Filtered]");
    expect(redact("/api/auth/callback/google?state=s&code=c")).toBe("/api/auth/callback/google?state=[Filtered]&code=[Filtered]");
  });

  it("keeps filtering secret keys and ingest keys", () => {
    expect(redact({ password: "p", nested: { token: "t", url: "/api/1/store/?sentry_key=abc" } })).toEqual({
      password: "[Filtered]",
      nested: { token: "[Filtered]", url: "/api/1/store/?sentry_key=[Filtered]" },
    });
  });

  it("filters organization API tokens wherever they appear in a string", () => {
    const secret = "flt_" + "Ab9_-".repeat(8);
    expect(redact({ msg: `request failed: Bearer ${secret} refused`, detail: [secret] })).toEqual({
      msg: "request failed: Bearer flt_[Filtered] refused",
      detail: ["flt_[Filtered]"],
    });
  });

  it("masks AWS access key ids to their last 4 characters and filters AWS secrets by key", () => {
    expect(redact("denied for AKIAIOSFODNN7EXAMPLE and ASIA0123456789ABCDEF")).toBe("denied for AKIA…MPLE and ASIA…CDEF");
    expect(redact({ secretAccessKey: "wJalrXUtnFEMI/K7MDENG", sessionToken: "FwoG" })).toEqual({ secretAccessKey: "[Filtered]", sessionToken: "[Filtered]" });
  });

  it("writes a Verbatim value as it is (MAIL_LOG_LINKS), and still one JSON line", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (line) => lines.push(line));
    logger.info("mail", { actionUrl: new Verbatim("https://f.example/reset-password/abc\n{}") });
    expect(lines).toHaveLength(1);
    expect(lines[0].trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(lines[0]).actionUrl).toBe("https://f.example/reset-password/abc\n{}");
  });
});
