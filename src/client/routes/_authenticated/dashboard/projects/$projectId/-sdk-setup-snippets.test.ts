import { describe, expect, it } from "vitest";
import { PLATFORMS, type Platform } from "@/shared/platforms";
import { nativeSnippet, SDK_SETUPS } from "./-sdk-setup-snippets";

const dsn = "https://0123456789abcdef0123456789abcdef@faultline.example.com/42";

/** What each official SDK's documented setup must say, the DSN where that SDK reads it. */
const DOCUMENTED: Record<Platform, string[]> = {
  NODE_JS: ["npm install @sentry/node", 'import * as Sentry from "@sentry/node";', `Sentry.init({\n  dsn: "${dsn}",`],
  NEST_JS: ["npm install @sentry/nestjs", 'import * as Sentry from "@sentry/nestjs";', `dsn: "${dsn}",`, "SentryModule.forRoot()"],
  REACT: ["npm install @sentry/react", 'import * as Sentry from "@sentry/react";', `Sentry.init({\n  dsn: "${dsn}",`],
  NEXT_JS: ["npm install @sentry/nextjs", "instrumentation-client.ts", `dsn: "${dsn}",`, "export const onRequestError = Sentry.captureRequestError;"],
  PYTHON: ["pip install sentry-sdk", "import sentry_sdk", `sentry_sdk.init(\n    dsn="${dsn}",`],
  JAVA: ['implementation("io.sentry:sentry:', "import io.sentry.Sentry;", `options.setDsn("${dsn}");`],
  REACT_NATIVE: ["npm install @sentry/react-native", `dsn: "${dsn}",`, "Sentry.wrap(App)"],
  EXPO: ["npx expo install @sentry/react-native", '"@sentry/react-native/expo"', "getSentryExpoConfig", `dsn: "${dsn}",`],
  BROWSER_JS: ["npm install @sentry/browser", `dsn: "${dsn}",`],
  ANDROID: ['implementation("io.sentry:sentry-android:', `<meta-data android:name="io.sentry.dsn" android:value="${dsn}" />`],
  COCOA: ["https://github.com/getsentry/sentry-cocoa.git", "import Sentry", "SentrySDK.start { options in", `options.dsn = "${dsn}"`],
  FLUTTER: ["flutter pub add sentry_flutter", "import 'package:sentry_flutter/sentry_flutter.dart';", "await SentryFlutter.init(", `options.dsn = '${dsn}';`],
  UNITY: ["https://github.com/getsentry/unity.git", "Tools → Sentry", `\n${dsn}`],
  GO: ["go get github.com/getsentry/sentry-go", "sentry.Init(sentry.ClientOptions{", `Dsn: "${dsn}",`, "defer sentry.Flush(2 * time.Second)"],
  RUBY: ["bundle add sentry-ruby", 'require "sentry-ruby"', "Sentry.init do |config|", `config.dsn = "${dsn}"`],
  PHP: ["composer require sentry/sentry", "\\Sentry\\init([", `'dsn' => '${dsn}',`],
  DOTNET: ["dotnet add package Sentry", "SentrySdk.Init(options =>", `options.Dsn = "${dsn}";`],
  RUST: ["cargo add sentry", `sentry::init(("${dsn}", sentry::ClientOptions {`],
  ELIXIR: ['{:sentry, "~> 10.0"}', "config :sentry,", `dsn: "${dsn}",`],
  C_CPP: ["#include <sentry.h>", `sentry_options_set_dsn(options, "${dsn}");`, "sentry_init(options);", "sentry_close();"],
  OTHER: [`export SENTRY_DSN=${dsn}`],
};

describe("SDK setup snippets", () => {
  it("give every platform its official SDK's documented setup with the project's DSN filled in", () => {
    for (const platform of PLATFORMS) {
      const snippet = SDK_SETUPS[platform].snippet(dsn);
      for (const part of DOCUMENTED[platform]) expect(snippet, platform).toContain(part);
      // The DSN is filled in, never left as a placeholder.
      expect(snippet, platform).not.toMatch(/___|YOUR_DSN|<dsn>|examplePublicKey/i);
    }
  });

  it("cover the Sentry SDKs people use, each with its own package", () => {
    const sdks = Object.fromEntries(PLATFORMS.map((platform) => [platform, SDK_SETUPS[platform].sdk]));
    expect(sdks).toMatchObject({
      GO: "sentry-go",
      RUBY: "sentry-ruby",
      PHP: "sentry/sentry",
      DOTNET: "Sentry",
      JAVA: "io.sentry:sentry",
      ANDROID: "io.sentry:sentry-android",
      COCOA: "sentry-cocoa",
      RUST: "sentry",
      ELIXIR: "sentry",
      FLUTTER: "sentry_flutter",
      UNITY: "io.sentry.unity",
      REACT_NATIVE: "@sentry/react-native",
    });
  });

  it("keep the native protocol's snippet: the key in x-api-key, the platform only when the native SDKs declare it", () => {
    expect(nativeSnippet("https://api.example.com", "k3y", "GO")).toContain('-H "x-api-key: k3y"');
    expect(nativeSnippet("https://api.example.com", "k3y", "GO")).not.toContain('"platform"');
    expect(nativeSnippet("https://api.example.com", "k3y", "PYTHON")).toContain('"platform":"PYTHON"');
  });
});
