import { describe, expect, it } from "vitest";
import { ALERT_CHANNELS } from "../../../shared/alert.inputs";
import { ALERT_CHANNEL_DEFINITIONS, channelDefinition } from "./alert-channels";

describe("the alert channel registry", () => {
  it("has one definition per shared channel kind, and none for a kind it does not know", () => {
    expect(Object.keys(ALERT_CHANNEL_DEFINITIONS).sort()).toEqual([...ALERT_CHANNELS].sort());
    for (const kind of ALERT_CHANNELS) expect(channelDefinition(kind)).toBe(ALERT_CHANNEL_DEFINITIONS[kind]);
    expect(channelDefinition("pager")).toBeNull();
    expect(channelDefinition("toString")).toBeNull();
  });
});
