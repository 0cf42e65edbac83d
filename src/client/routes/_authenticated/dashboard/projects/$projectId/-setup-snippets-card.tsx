import { useState } from "react";
import { PLATFORM_LABELS, PLATFORMS, type Platform } from "@/shared/platforms";
import type { ProjectView } from "@/client/lib/trpc";
import { CodeBlock } from "@/client/components/code-block";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Label } from "@/client/components/ui/label";
import { NativeSelect } from "@/client/components/ui/select";
import { serverOrigin } from "./-source-map-snippets";
import { nativeSnippet, SDK_SETUPS } from "./-sdk-setup-snippets";

/** The server that answers ingest: the DSN's host, which is built from the configured API URL. */
function ingestOrigin(dsn: string | null): string {
  return serverOrigin(dsn, window.location.origin);
}

type Choice = Platform | "native";

export function SetupSnippetsCard({ project }: { project: ProjectView }) {
  // The project's own platform first; any other SDK (or the native protocol) one choice away.
  const [choice, setChoice] = useState<Choice>(project.platform);
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
  return (
    <Card>
      <CardHeader>
        <CardTitle>Set up an SDK</CardTitle>
        <CardDescription>Faultline speaks the Sentry protocol: point any official Sentry SDK at this project's DSN.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <div className="grid gap-2 sm:max-w-sm">
          <Label htmlFor="setup-sdk">Platform</Label>
          <NativeSelect id="setup-sdk" data-testid="setup-sdk" value={choice} onChange={(event) => setChoice(event.target.value as Choice)}>
            {PLATFORMS.map((platform) => (
              <option key={platform} value={platform}>
                {PLATFORM_LABELS[platform]} — {SDK_SETUPS[platform].sdk}
              </option>
            ))}
            <option value="native">Native SDK protocol (HTTP)</option>
          </NativeSelect>
        </div>
        {choice === "native" ? (
          <>
            <p className="text-sm text-muted-foreground">
              The native SDK protocol posts one exception per request with the project key in the <code>x-api-key</code> header.
            </p>
            <CodeBlock code={nativeSnippet(ingestOrigin(project.dsn), project.apiKey, project.platform)} testId="setup-snippet" />
          </>
        ) : (
          <CodeBlock code={SDK_SETUPS[choice].snippet(project.dsn)} testId="setup-snippet" />
        )}
      </CardContent>
    </Card>
  );
}
