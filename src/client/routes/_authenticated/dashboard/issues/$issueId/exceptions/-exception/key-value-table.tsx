import { isValidElement, type ReactNode } from "react";
import { displayValue } from "@/client/lib/untrusted-text";
import { UntrustedText } from "@/client/components/untrusted-text";

export type KeyValueRow = [key: string, value: ReactNode | unknown];

/**
 * Keys and values sent by an SDK as a two-column table. Plain values (strings, numbers, objects)
 * are shown as text; callers may pass an element for a value they rendered safely themselves.
 * (isValidElement checks React's Symbol tag, which JSON from an SDK cannot forge.)
 */
export function KeyValueTable({ rows, testId, empty = "Nothing recorded." }: { rows: KeyValueRow[]; testId?: string; empty?: string }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <table className="w-full table-fixed text-sm" data-testid={testId}>
      <tbody>
        {rows.map(([key, value], index) => (
          <tr key={`${key}-${index}`} className="border-b last:border-0">
            <th scope="row" className="w-1/3 py-1.5 pr-3 text-left align-top font-mono text-xs font-normal break-all text-muted-foreground">
              <UntrustedText value={key} maxLength={200} />
            </th>
            <td className="py-1.5 align-top font-mono text-xs">
              {isValidElement(value) ? value : <UntrustedText value={displayValue(value)} maxLength={500} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
