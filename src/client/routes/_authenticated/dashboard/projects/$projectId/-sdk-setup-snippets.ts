import { isNativePlatform, type Platform } from "@/shared/platforms";

/**
 * The "Set up an SDK" instructions, one per project platform (issue 37, item 12): each is the
 * official Sentry SDK's documented install and init, with this project's DSN filled in. A Record
 * over the platforms, so a new platform does not compile until it has its snippet. The DSN is
 * the server's own (scheme, hex key, host, number): it never holds a quote of any language here.
 */
export interface SdkSetup {
  /** What the reader installs: the SDK's package name. */
  sdk: string;
  snippet: (dsn: string) => string;
}

const javaScriptSdk = (pkg: string, note: string) => (dsn: string) => `npm install ${pkg}

${note}
import * as Sentry from "${pkg}";

Sentry.init({
  dsn: "${dsn}",
});`;

export const SDK_SETUPS: Record<Platform, SdkSetup> = {
  NODE_JS: {
    sdk: "@sentry/node",
    snippet: (dsn) => `npm install @sentry/node

// instrument.mjs — import it before any other module
import * as Sentry from "@sentry/node";

Sentry.init({
  dsn: "${dsn}",
  environment: process.env.NODE_ENV,
  // Bundled or transpiled code? Upload its source maps for readable stack traces: see "Source maps" below.
});`,
  },
  NEST_JS: {
    sdk: "@sentry/nestjs",
    snippet: (dsn) => `npm install @sentry/nestjs

// instrument.ts — import it first in main.ts: import "./instrument";
import * as Sentry from "@sentry/nestjs";

Sentry.init({
  dsn: "${dsn}",
});

// app.module.ts
import { SentryModule } from "@sentry/nestjs/setup";

@Module({
  imports: [SentryModule.forRoot(), /* ... */],
})
export class AppModule {}`,
  },
  REACT: { sdk: "@sentry/react", snippet: javaScriptSdk("@sentry/react", "// main.tsx — before createRoot(...).render(...)") },
  NEXT_JS: {
    sdk: "@sentry/nextjs",
    snippet: (dsn) => `npm install @sentry/nextjs

// instrumentation-client.ts — the browser
import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: "${dsn}",
});

// sentry.server.config.ts — the server (and sentry.edge.config.ts, the same, for the edge runtime)
import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: "${dsn}",
});

// instrumentation.ts
import * as Sentry from "@sentry/nextjs";

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./sentry.server.config");
  if (process.env.NEXT_RUNTIME === "edge") await import("./sentry.edge.config");
}

export const onRequestError = Sentry.captureRequestError;`,
  },
  PYTHON: {
    sdk: "sentry-sdk",
    snippet: (dsn) => `pip install sentry-sdk

import sentry_sdk

sentry_sdk.init(
    dsn="${dsn}",
)`,
  },
  JAVA: {
    sdk: "io.sentry:sentry",
    snippet: (
      dsn,
    ) => `// build.gradle.kts (Maven: the artifact io.sentry:sentry; Spring Boot: io.sentry:sentry-spring-boot-starter-jakarta and sentry.dsn in application.properties)
implementation("io.sentry:sentry:8.+")

import io.sentry.Sentry;

public static void main(String[] args) {
  Sentry.init(options -> {
    options.setDsn("${dsn}");
  });
}`,
  },
  REACT_NATIVE: {
    sdk: "@sentry/react-native",
    snippet: (dsn) => `npm install @sentry/react-native

// App.tsx
import * as Sentry from "@sentry/react-native";

Sentry.init({
  dsn: "${dsn}",
});

export default Sentry.wrap(App);`,
  },
  EXPO: {
    sdk: "@sentry/react-native",
    snippet: (dsn) => `npx expo install @sentry/react-native

// app.json: "plugins": ["@sentry/react-native/expo"]
// metro.config.js: const { getSentryExpoConfig } = require("@sentry/react-native/metro");
//                  module.exports = getSentryExpoConfig(__dirname);

// app/_layout.tsx
import * as Sentry from "@sentry/react-native";

Sentry.init({
  dsn: "${dsn}",
});

export default Sentry.wrap(RootLayout);`,
  },
  BROWSER_JS: {
    sdk: "@sentry/browser",
    snippet: (dsn) => `npm install @sentry/browser

import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: "${dsn}",
  // Minified bundle? Upload its source maps (see "Source maps" below); release names the upload without debug ids.
  release: "1.4.0",
});`,
  },
  ANDROID: {
    sdk: "io.sentry:sentry-android",
    snippet: (dsn) => `// app/build.gradle.kts
dependencies {
  implementation("io.sentry:sentry-android:8.+")
}

<!-- AndroidManifest.xml: the SDK starts itself with the application -->
<application>
  <meta-data android:name="io.sentry.dsn" android:value="${dsn}" />
</application>`,
  },
  COCOA: {
    sdk: "sentry-cocoa",
    snippet: (dsn) => `// Swift Package Manager: https://github.com/getsentry/sentry-cocoa.git (product "Sentry")

import Sentry

func application(_ application: UIApplication,
                 didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    SentrySDK.start { options in
        options.dsn = "${dsn}"
    }
    return true
}`,
  },
  FLUTTER: {
    sdk: "sentry_flutter",
    snippet: (dsn) => `flutter pub add sentry_flutter   # Dart without Flutter: dart pub add sentry, then Sentry.init the same way

import 'package:flutter/widgets.dart';
import 'package:sentry_flutter/sentry_flutter.dart';

Future<void> main() async {
  await SentryFlutter.init(
    (options) {
      options.dsn = '${dsn}';
    },
    appRunner: () => runApp(const MyApp()),
  );
}`,
  },
  UNITY: {
    sdk: "io.sentry.unity",
    snippet: (dsn) => `// Window → Package Manager → + → Add package from git URL:
https://github.com/getsentry/unity.git

// Then Tools → Sentry → Core → DSN:
${dsn}`,
  },
  GO: {
    sdk: "sentry-go",
    snippet: (dsn) => `go get github.com/getsentry/sentry-go

import (
	"log"
	"time"

	"github.com/getsentry/sentry-go"
)

func main() {
	err := sentry.Init(sentry.ClientOptions{
		Dsn: "${dsn}",
	})
	if err != nil {
		log.Fatalf("sentry.Init: %s", err)
	}
	// Send what is buffered before the program exits.
	defer sentry.Flush(2 * time.Second)
}`,
  },
  RUBY: {
    sdk: "sentry-ruby",
    snippet: (dsn) => `bundle add sentry-ruby   # Rails: bundle add sentry-ruby sentry-rails

# config/initializers/sentry.rb (Rails), or where the program starts
require "sentry-ruby"

Sentry.init do |config|
  config.dsn = "${dsn}"
end`,
  },
  PHP: {
    sdk: "sentry/sentry",
    snippet: (dsn) => `composer require sentry/sentry
# Laravel: composer require sentry/sentry-laravel && php artisan sentry:publish --dsn=${dsn}

<?php
\\Sentry\\init([
    'dsn' => '${dsn}',
]);`,
  },
  DOTNET: {
    sdk: "Sentry",
    snippet: (dsn) => `dotnet add package Sentry   # ASP.NET Core: Sentry.AspNetCore, then builder.WebHost.UseSentry(o => o.Dsn = "...")

using Sentry;

SentrySdk.Init(options =>
{
    options.Dsn = "${dsn}";
});`,
  },
  RUST: {
    sdk: "sentry",
    snippet: (dsn) => `cargo add sentry

fn main() {
    // Keep the guard until the program ends: dropping it sends what is queued.
    let _guard = sentry::init(("${dsn}", sentry::ClientOptions {
        release: sentry::release_name!(),
        ..Default::default()
    }));
}`,
  },
  ELIXIR: {
    sdk: "sentry",
    snippet: (dsn) => `# mix.exs
defp deps do
  [
    {:sentry, "~> 10.0"},
    {:jason, "~> 1.1"},
    {:hackney, "~> 1.8"}
  ]
end

# config/config.exs
config :sentry,
  dsn: "${dsn}",
  environment_name: Mix.env(),
  enable_source_code_context: true,
  root_source_code_paths: [File.cwd!()]`,
  },
  C_CPP: {
    sdk: "sentry-native",
    snippet: (dsn) => `// sentry-native: https://github.com/getsentry/sentry-native (CMake: add_subdirectory, link sentry::sentry)
#include <sentry.h>

int main(void) {
  sentry_options_t *options = sentry_options_new();
  sentry_options_set_dsn(options, "${dsn}");
  sentry_options_set_database_path(options, ".sentry-native");
  sentry_init(options);

  /* ... your program ... */

  sentry_close();
}`,
  },
  OTHER: {
    sdk: "any Sentry SDK",
    snippet: (dsn) => `# Every official Sentry SDK reads its DSN from the SENTRY_DSN environment variable
# when its init is given none; or pass it as the init's dsn option.
export SENTRY_DSN=${dsn}`,
  },
};

/** The native `@traque/*` protocol: one exception per request, the project key in `x-api-key`. */
export function nativeSnippet(origin: string, apiKey: string, platform: Platform): string {
  const body = {
    environment: "PRODUCTION",
    // Other values are not the native SDKs' to send.
    ...(isNativePlatform(platform) ? { platform } : {}),
    name: "TypeError",
    message: "Cannot read properties of undefined (reading 'id')",
    stacktrace: { stack: "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/dist/users.js:10:5)" },
  };
  return `curl -X POST "${origin}/api/v1/exceptions" \\
  -H "x-api-key: ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`;
}
