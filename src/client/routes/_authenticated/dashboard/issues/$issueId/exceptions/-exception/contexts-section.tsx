import { displayValue } from "@/client/lib/untrusted-text";
import { UntrustedText } from "@/client/components/untrusted-text";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { KeyValueTable, type KeyValueRow } from "./key-value-table";

const KNOWN_ORDER = ["os", "browser", "runtime", "device", "app", "culture", "cloud_resource"];
const TITLES: Record<string, string> = { os: "Operating system", browser: "Browser", runtime: "Runtime", device: "Device", app: "App", culture: "Culture" };

function rowsOf(value: unknown): KeyValueRow[] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return Object.entries(value as Record<string, unknown>);
  return [["value", value]];
}

/** Environment the SDK reported (os, browser, runtime, device, …), one table per context. */
export function ContextsSection({ contexts }: { contexts: [string, unknown][] }) {
  if (contexts.length === 0) return null;
  const rank = (key: string) => (KNOWN_ORDER.includes(key) ? KNOWN_ORDER.indexOf(key) : KNOWN_ORDER.length);
  const sorted = [...contexts].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return (
    <section className="grid gap-3" data-testid="exception-contexts">
      <h2 className="text-lg font-semibold">Contexts</h2>
      <div className="grid gap-4 md:grid-cols-2">
        {sorted.map(([key, value]) => (
          <Card key={key} className="gap-3 py-4" data-testid="exception-context" data-context={key}>
            <CardHeader className="px-4">
              <CardTitle className="text-sm">{TITLES[key] ?? <UntrustedText value={displayValue(key)} maxLength={100} />}</CardTitle>
            </CardHeader>
            <CardContent className="px-4">
              <KeyValueTable rows={rowsOf(value)} />
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
