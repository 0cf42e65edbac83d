import { isNativePlatform, type Platform } from "@/shared/platforms";
import type { ProjectView } from "@/client/lib/trpc";
import { CodeBlock } from "@/client/components/code-block";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/client/components/ui/tabs";
import { serverOrigin } from "./-source-map-snippets";

/** The server that answers ingest: the DSN's host, which is built from the configured API URL. */
function ingestOrigin(dsn: string | null): string {
  return serverOrigin(dsn, window.location.origin);
}

function nodeSnippet(dsn: string) {
  return `npm install @sentry/node

// instrument.mjs — import it before any other module
import * as Sentry from "@sentry/node";

Sentry.init({
  dsn: "${dsn}",
  environment: process.env.NODE_ENV,
  // Bundled or transpiled code? Upload its source maps for readable stack traces: see "Source maps" below.
});`;
}

function browserSnippet(dsn: string) {
  return `npm install @sentry/browser

import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: "${dsn}",
  // Minified bundle? Upload its source maps (see "Source maps" below); release names the upload without debug ids.
  release: "1.4.0",
});`;
}

function pythonSnippet(dsn: string) {
  return `pip install sentry-sdk

import sentry_sdk

sentry_sdk.init(
    dsn="${dsn}",
)`;
}

function nativeSnippet(origin: string, apiKey: string, platform: Platform) {
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

export function SetupSnippetsCard({ project }: { project: ProjectView }) {
  if (!project.dsn || !project.apiKey) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Set up an SDK</CardTitle>
          <CardDescription>This project has no active key. Create one above to get setup instructions.</CardDescription>
        </CardHeader>
      </Card>
    );
  }
  const defaultTab = project.platform === "PYTHON" ? "python" : ["REACT", "NEXT_JS", "BROWSER_JS"].includes(project.platform) ? "browser" : "node";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Set up an SDK</CardTitle>
        <CardDescription>Faultline speaks the Sentry protocol: point any official Sentry SDK at this project's DSN.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue={defaultTab}>
          <TabsList>
            <TabsTrigger value="node">@sentry/node</TabsTrigger>
            <TabsTrigger value="browser">@sentry/browser</TabsTrigger>
            <TabsTrigger value="python">sentry-python</TabsTrigger>
            <TabsTrigger value="native">Native SDK</TabsTrigger>
          </TabsList>
          <TabsContent value="node">
            <CodeBlock code={nodeSnippet(project.dsn)} testId="snippet-node" />
          </TabsContent>
          <TabsContent value="browser">
            <CodeBlock code={browserSnippet(project.dsn)} testId="snippet-browser" />
          </TabsContent>
          <TabsContent value="python">
            <CodeBlock code={pythonSnippet(project.dsn)} testId="snippet-python" />
          </TabsContent>
          <TabsContent value="native" className="grid grid-cols-[minmax(0,1fr)] gap-2">
            <p className="text-sm text-muted-foreground">
              The native SDK protocol posts one exception per request with the project key in the <code>x-api-key</code> header.
            </p>
            <CodeBlock code={nativeSnippet(ingestOrigin(project.dsn), project.apiKey, project.platform)} testId="snippet-native" />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
