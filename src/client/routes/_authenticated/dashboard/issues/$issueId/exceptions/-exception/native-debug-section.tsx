import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { UntrustedText } from "@/client/components/untrusted-text";
import { KeyValueTable } from "./key-value-table";
import type { DebugImageView } from "@/shared/occurrence-view";

const MAX_SHOWN_IMAGES = 200;

/** Loaded binaries (`debug_meta.images`): what an address-only native frame is read against. */
export function DebugImagesSection({ images }: { images: DebugImageView[] }) {
  if (images.length === 0) return null;
  return (
    <Card className="gap-3" data-testid="exception-debug-images">
      <CardHeader>
        <CardTitle>Debug images ({images.length})</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-xs">
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th className="py-1.5 pr-3 font-normal">Image</th>
              <th className="py-1.5 pr-3 font-normal">Address</th>
              <th className="py-1.5 pr-3 font-normal">Size</th>
              <th className="py-1.5 font-normal">Debug ID</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {images.slice(0, MAX_SHOWN_IMAGES).map((image, index) => (
              <tr key={index} className="border-b last:border-0" data-testid="debug-image">
                <td className="py-1 pr-3 break-all" title={image.name ?? undefined}>
                  <UntrustedText value={image.name?.split(/[\\/]/).pop() ?? "?"} maxLength={200} />
                </td>
                <td className="py-1 pr-3">{image.address ? <UntrustedText value={image.address} maxLength={40} /> : null}</td>
                <td className="py-1 pr-3">{image.size !== null ? image.size.toLocaleString("en-US") : null}</td>
                <td className="py-1 break-all">{image.debugId ? <UntrustedText value={image.debugId} maxLength={80} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {images.length > MAX_SHOWN_IMAGES ? (
          <p className="pt-2 text-xs text-muted-foreground">{images.length - MAX_SHOWN_IMAGES} more in the raw JSON.</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Package versions the SDK listed (`modules`). */
export function ModulesSection({ modules }: { modules: [string, string][] }) {
  if (modules.length === 0) return null;
  return (
    <Card className="gap-3" data-testid="exception-modules">
      <CardHeader>
        <CardTitle>Packages ({modules.length})</CardTitle>
      </CardHeader>
      <CardContent className="max-h-96 overflow-y-auto">
        <KeyValueTable rows={[...modules].sort(([a], [b]) => a.localeCompare(b))} testId="modules-table" />
      </CardContent>
    </Card>
  );
}
