import { useState } from "react";
import { createFileRoute, Link } from "@tanstack/react-router";
import type { WafIpSetView } from "@/shared/waf.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { IpSetCard } from "./-ip-set-card";
import { WafAuditCard } from "./-waf-audit-card";

export const Route = createFileRoute("/_authenticated/dashboard/integrations/aws/waf/")({
  component: WafScreen,
});

function WafScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const setup = trpc.waf.setup.useQuery(undefined, { enabled: Boolean(activeOrganizationId) });
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="AWS WAF" />
        <NotFoundView type="organization" />
      </>
    );
  }
  if (setup.isPending) return <Skeleton className="h-48 rounded-xl" />;
  if (setup.error) return <QueryErrorAlert error={setup.error} onRetry={() => void setup.refetch()} />;
  const connection = setup.data.connection;
  if (!connection) {
    return (
      <>
        <PageHeader title="AWS WAF" description="Not connected." />
        <Card>
          <CardContent className="grid gap-3 text-sm">
            <p>Connect AWS WAF on the integrations screen first.</p>
            <Button asChild className="w-fit">
              <Link to="/dashboard/integrations">Go to integrations</Link>
            </Button>
          </CardContent>
        </Card>
      </>
    );
  }
  return (
    <div className="grid gap-6 grid-cols-[minmax(0,1fr)]" data-testid="waf-screen">
      <PageHeader
        title="AWS WAF"
        description={`${connection.scope} · ${connection.region} · ${connection.roleArn ? `role ${connection.roleArn}` : `key ${connection.accessKeyId}`}`}
        actions={
          <Button asChild variant="outline">
            <Link to="/dashboard/integrations">Integrations</Link>
          </Button>
        }
      />
      {connection.status === "failing" ? (
        <p className="text-sm text-destructive" role="alert" data-testid="waf-failing">
          The last AWS call failed: {connection.lastError}
        </p>
      ) : null}
      <WafResources />
      <WafAuditCard />
    </div>
  );
}

function WafResources() {
  const { can } = usePermissions();
  const ipSets = trpc.waf.ipSets.useQuery();
  const webAcls = trpc.waf.webAcls.useQuery();
  if (ipSets.isPending || webAcls.isPending) return <Skeleton className="h-64 rounded-xl" />;
  if (ipSets.error || webAcls.error)
    return <QueryErrorAlert error={ipSets.error ?? webAcls.error} onRetry={() => void Promise.all([ipSets.refetch(), webAcls.refetch()])} />;
  const names = new Map(ipSets.data.map((ipSet) => [ipSet.id, ipSet.name]));
  return (
    <>
      <BlockListCard ipSets={ipSets.data} canChoose={can("integration:connect")} />
      <Card>
        <CardHeader>
          <CardTitle>Web ACLs</CardTitle>
          <CardDescription>The rules of each web ACL, and the IP set a rule matches.</CardDescription>
        </CardHeader>
        <CardContent>
          {webAcls.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No web ACLs in this region and scope.</p>
          ) : (
            <Table data-testid="waf-web-acls">
              <TableHeader>
                <TableRow>
                  <TableHead>Web ACL</TableHead>
                  <TableHead>Rule</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>IP set</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {webAcls.data.flatMap((acl) =>
                  (acl.rules.length ? acl.rules : [null]).map((rule, index) => (
                    <TableRow key={`${acl.id}-${rule?.name ?? "none"}`}>
                      <TableCell className="font-medium">{index === 0 ? acl.name : ""}</TableCell>
                      <TableCell>{rule?.name ?? <span className="text-muted-foreground">No rules</span>}</TableCell>
                      <TableCell>{rule?.action ?? ""}</TableCell>
                      <TableCell>{rule?.ipSetId ? (names.get(rule.ipSetId) ?? rule.ipSetId) : ""}</TableCell>
                    </TableRow>
                  )),
                )}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <section className="grid gap-4" aria-label="IP sets">
        <h2 className="text-lg font-semibold">IP sets</h2>
        {ipSets.data.length === 0 ? <p className="text-sm text-muted-foreground">No IP sets in this region and scope.</p> : null}
        {ipSets.data.map((ipSet) => (
          <IpSetCard key={ipSet.id} ipSet={ipSet} canBlock={can("integration:block")} />
        ))}
      </section>
    </>
  );
}

/** Which IP set "Block this IP" writes to, with a warning when no Block rule uses it (blocking would do nothing). */
function BlockListCard({ ipSets, canChoose }: { ipSets: WafIpSetView[]; canChoose: boolean }) {
  const current = ipSets.find((ipSet) => ipSet.isBlockList) ?? null;
  const [choice, setChoice] = useState(current?.id ?? ipSets[0]?.id ?? "");
  const utils = trpc.useUtils();
  const choose = useToastMutation((ipSetId: string) => utils.client.waf.setBlockList.mutate({ ipSetId }), {
    success: (connection) => `Block list: ${connection.blockList?.name}`,
    onSuccess: () => utils.waf.invalidate(),
  });
  const candidate = ipSets.find((ipSet) => ipSet.id === choice);
  const blocks = (ipSet: WafIpSetView | undefined) => ipSet?.referencedBy.some((reference) => reference.action === "Block") ?? false;
  return (
    <Card data-testid="waf-block-list">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Block list {current ? <Badge data-testid="waf-block-list-name">{current.name}</Badge> : <Badge variant="secondary">Not chosen</Badge>}
        </CardTitle>
        <CardDescription>"Block this IP" on an exception adds the address to this IP set.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {current && !blocks(current) ? (
          <p className="text-destructive" role="alert">
            No web ACL rule with the Block action references {current.name}: addresses added to it are not blocked.
          </p>
        ) : null}
        {canChoose && ipSets.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2">
            <select
              aria-label="IP set to use as the block list"
              className="h-9 rounded-md border border-input bg-transparent px-3 text-sm dark:bg-input/30"
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              data-testid="waf-block-list-select"
            >
              {ipSets.map((ipSet) => (
                <option key={ipSet.id} value={ipSet.id}>
                  {ipSet.name} ({ipSet.version === "IPV4" ? "IPv4" : "IPv6"}){blocks(ipSet) ? "" : " — no Block rule"}
                </option>
              ))}
            </select>
            <Button onClick={() => choose.mutate(choice)} disabled={!choice || choice === current?.id || choose.isPending} data-testid="waf-block-list-save">
              Use as block list
            </Button>
            {candidate && !blocks(candidate) ? <span className="text-destructive">No rule blocks with this IP set.</span> : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
