import { UntrustedLink, UntrustedText } from "@/client/components/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { KeyValueTable } from "./key-value-table";
import type { RequestView } from "@/shared/occurrence-view";

/** The HTTP request during which the error happened. */
export function RequestSection({ request }: { request: RequestView }) {
  return (
    <Card className="gap-4" data-testid="exception-request">
      <CardHeader>
        <CardTitle>Request</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex min-w-0 items-start gap-2 font-mono text-sm">
          {request.method ? (
            <Badge variant="secondary" className="font-mono">
              <UntrustedText value={request.method} maxLength={20} />
            </Badge>
          ) : null}
          <span className="min-w-0" data-testid="request-url">
            <UntrustedLink url={request.url} />
          </span>
        </div>
        {request.query ? (
          <div className="grid gap-1">
            <h3 className="text-xs font-medium text-muted-foreground uppercase">Query</h3>
            <code className="font-mono text-xs break-all">
              <UntrustedText value={request.query} />
            </code>
          </div>
        ) : null}
        <div className="grid gap-1">
          <h3 className="text-xs font-medium text-muted-foreground uppercase">Headers</h3>
          <KeyValueTable rows={request.headers} testId="request-headers" empty="No headers recorded." />
        </div>
        {request.cookies.length ? (
          <div className="grid gap-1">
            <h3 className="text-xs font-medium text-muted-foreground uppercase">Cookies</h3>
            <KeyValueTable rows={request.cookies} testId="request-cookies" />
          </div>
        ) : null}
        {request.data !== null ? (
          <div className="grid gap-1">
            <h3 className="text-xs font-medium text-muted-foreground uppercase">Body</h3>
            <KeyValueTable
              rows={
                request.data !== null && typeof request.data === "object" && !Array.isArray(request.data)
                  ? Object.entries(request.data)
                  : [["body", request.data]]
              }
              testId="request-data"
            />
          </div>
        ) : null}
        {request.env.length ? (
          <div className="grid gap-1">
            <h3 className="text-xs font-medium text-muted-foreground uppercase">Environment</h3>
            <KeyValueTable rows={request.env} testId="request-env" />
          </div>
        ) : null}
        {request.clientIp ? (
          <p className="text-sm">
            <span className="text-muted-foreground">Client IP </span>
            <code className="font-mono text-xs">
              <UntrustedText value={request.clientIp} maxLength={100} />
            </code>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
