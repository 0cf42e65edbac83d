import type { ExceptionTag } from "@/shared/triage.views";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { KeyValueTable, type KeyValueRow } from "./key-value-table";
import type { OccurrenceView } from "@/shared/occurrence-view";

/**
 * The tags, user, SDK and extra data of the exception. The tags are the server's list for this one
 * exception (ExceptionDetail.tags): the same keys its issue's breakdown counts, this exception's values.
 */
export function EventDataSection({ occurrence, tags }: { occurrence: OccurrenceView; tags: readonly ExceptionTag[] }) {
  const user = occurrence.user;
  const userRows: KeyValueRow[] = user
    ? (
        [
          ["id", user.id],
          ["email", user.email],
          ["username", user.username],
          ["ip", user.ip],
          ["name", user.name],
        ] as KeyValueRow[]
      )
        .filter(([, value]) => value !== null)
        .concat(
          user.geo.map(([key, value]): KeyValueRow => [`geo.${key}`, value]),
          user.data.map(([key, value]): KeyValueRow => [`data.${key}`, value]),
        )
    : [];
  const sdkRows: KeyValueRow[] = occurrence.sdk
    ? (
        [
          ["name", occurrence.sdk.name],
          ["version", occurrence.sdk.version],
        ] as KeyValueRow[]
      ).filter(([, value]) => value !== null)
    : [];
  if (occurrence.dist) sdkRows.push(["dist", occurrence.dist]);
  if (occurrence.fingerprint?.length) sdkRows.push(["fingerprint", occurrence.fingerprint]);

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Card className="gap-4" data-testid="exception-tags">
        <CardHeader>
          <CardTitle>Tags</CardTitle>
        </CardHeader>
        <CardContent>
          <KeyValueTable rows={tags.map(({ key, value }): KeyValueRow => [key, value])} testId="exception-tags-table" empty="No tags." />
        </CardContent>
      </Card>
      <Card className="gap-4" data-testid="exception-user">
        <CardHeader>
          <CardTitle>User</CardTitle>
        </CardHeader>
        <CardContent>
          <KeyValueTable rows={userRows} empty="No user recorded." />
        </CardContent>
      </Card>
      <Card className="gap-4" data-testid="exception-sdk">
        <CardHeader>
          <CardTitle>SDK</CardTitle>
        </CardHeader>
        <CardContent>
          <KeyValueTable rows={sdkRows} empty="The SDK did not identify itself." />
        </CardContent>
      </Card>
      {occurrence.extra.length ? (
        <Card className="gap-4" data-testid="exception-extra">
          <CardHeader>
            <CardTitle>Additional data</CardTitle>
          </CardHeader>
          <CardContent>
            <KeyValueTable rows={occurrence.extra} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
