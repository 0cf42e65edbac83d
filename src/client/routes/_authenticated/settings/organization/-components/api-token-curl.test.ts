import { describe, expect, it } from "vitest";
import { apiTokenCurlExample } from "./api-token-curl";

describe("the API token's curl example", () => {
  it("lists the organization's projects when the token may read them", () => {
    expect(apiTokenCurlExample("https://faultline.example", "acme", "flt_secret", ["event:read", "project:read"])).toBe(
      'curl -H "Authorization: Bearer flt_secret" https://faultline.example/api/v1/organizations/acme/projects',
    );
  });

  it("reads the organization itself otherwise, which any token may", () => {
    expect(apiTokenCurlExample("http://127.0.0.1:3000", "acme", "flt_secret", ["event:read"])).toBe(
      'curl -H "Authorization: Bearer flt_secret" http://127.0.0.1:3000/api/v1/organizations/acme',
    );
  });
});
