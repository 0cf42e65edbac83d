import { useState, type FormEvent } from "react";
import { Loader2Icon, XIcon } from "lucide-react";
import { BlockAddress } from "@/shared/waf.inputs";
import type { WafIpSetView } from "@/shared/waf.views";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { FieldError, invalidProps } from "@/client/components/form-field";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { SampledRequests } from "./-sampled-requests";

/** One IP set: its addresses (add or remove one, validated like the server does), the rules that use it, its sampled requests. */
export function IpSetCard({ ipSet, canBlock }: { ipSet: WafIpSetView; canBlock: boolean }) {
  const utils = trpc.useUtils();
  const [address, setAddress] = useState("");
  const [error, setError] = useState<string>();
  const [showSamples, setShowSamples] = useState(false);
  const refresh = () => Promise.all([utils.waf.ipSets.invalidate(), utils.waf.audit.invalidate(), utils.waf.blockStatus.invalidate()]);
  const add = useToastMutation((ip: string) => utils.client.waf.block.mutate({ ip, ipSetId: ipSet.id }), {
    success: (result) => (result.outcome === "changed" ? `Added ${result.cidr} to ${result.ipSet.name}` : `${result.cidr} was already in ${result.ipSet.name}`),
    onSuccess: async () => {
      setAddress("");
      await refresh();
    },
  });
  const remove = useToastMutation((ip: string) => utils.client.waf.unblock.mutate({ ip, ipSetId: ipSet.id }), {
    success: (result) => `Removed ${result.cidr} from ${result.ipSet.name}`,
    onSuccess: refresh,
  });
  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const parsed = BlockAddress.safeParse(address);
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) add.mutate(parsed.data);
  };
  const blocks = ipSet.referencedBy.some((reference) => reference.action === "Block");
  const inputId = `add-address-${ipSet.id}`;

  return (
    <Card data-testid="waf-ip-set" data-name={ipSet.name}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {ipSet.name}
          <Badge variant="outline">{ipSet.version === "IPV4" ? "IPv4" : "IPv6"}</Badge>
          {ipSet.isBlockList ? <Badge data-testid="waf-block-list-badge">Block list</Badge> : null}
        </CardTitle>
        <CardDescription>
          {ipSet.referencedBy.length === 0
            ? "No web ACL rule references this IP set."
            : ipSet.referencedBy.map((reference) => `${reference.webAclName} → ${reference.ruleName} (${reference.action ?? "rule group"})`).join(" · ")}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {ipSet.isBlockList && !blocks ? (
          <p className="text-sm text-destructive" role="alert">
            No rule with the Block action references this IP set: blocking an address here does nothing until one does.
          </p>
        ) : null}
        {ipSet.addresses.length === 0 ? (
          <p className="text-sm text-muted-foreground">No addresses.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="waf-addresses">
            {ipSet.addresses.map((cidr) => (
              <li key={cidr} className="flex items-center gap-1 rounded-md border px-2 py-0.5 font-mono text-xs" data-testid="waf-address">
                {cidr}
                {canBlock ? (
                  <button
                    type="button"
                    aria-label={`Remove ${cidr}`}
                    className="text-muted-foreground hover:text-destructive"
                    onClick={() => remove.mutate(cidr)}
                    disabled={remove.isPending}
                  >
                    <XIcon className="size-3" />
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {canBlock ? (
          <form className="grid gap-1" onSubmit={onAdd} noValidate>
            <div className="flex gap-2">
              <Input
                id={inputId}
                aria-label={`Address or CIDR to add to ${ipSet.name}`}
                placeholder={ipSet.version === "IPV4" ? "203.0.113.7 or 198.51.100.0/24" : "2001:db8::1 or 2001:db8::/48"}
                value={address}
                onChange={(event) => setAddress(event.target.value)}
                className="max-w-72 font-mono"
                {...invalidProps(inputId, error)}
              />
              <Button type="submit" variant="outline" disabled={add.isPending}>
                {add.isPending ? <Loader2Icon className="animate-spin" /> : null} Add
              </Button>
            </div>
            <FieldError id={`${inputId}-error`} message={error} />
          </form>
        ) : null}
        {ipSet.referencedBy.length > 0 ? (
          <div>
            <Button variant="ghost" size="sm" onClick={() => setShowSamples((shown) => !shown)} data-testid="waf-show-samples">
              {showSamples ? "Hide sampled requests" : "Sampled requests (last 3 hours)"}
            </Button>
            {showSamples ? <SampledRequests ipSetId={ipSet.id} /> : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
