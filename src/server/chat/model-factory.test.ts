import { describe, expect, it } from "vitest";
import { createModelProvider } from "./model-factory";

describe("createModelProvider", () => {
  it("builds one model object per model id and reuses it (building one compiles the provider's schemas)", () => {
    const provider = createModelProvider({ AI_PROVIDER: "openai-compatible", AI_BASE_URL: "http://127.0.0.1:9/v1", AI_MODEL: "m" })!;
    const model = provider.languageModel("m");
    expect(model.modelId).toBe("m");
    expect(provider.languageModel("m")).toBe(model);
    expect(provider.languageModel("other")).not.toBe(model);
  });

  it("is undefined while the agent is not configured", () => {
    expect(createModelProvider({ AI_PROVIDER: "openai-compatible", AI_MODEL: "m" })).toBeUndefined();
  });
});
