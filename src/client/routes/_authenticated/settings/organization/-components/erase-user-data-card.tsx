import { useState } from "react";
import { UserXIcon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { usePermissions } from "@/client/lib/use-permissions";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";
import { NativeSelect } from "@/client/components/ui/select";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import type { EraseUserDataInput } from "@/shared/deletion.inputs";

const FIELDS = { email: "Email", userId: "User id", ipAddress: "IP address" } as const;
type Field = keyof typeof FIELDS;

/** "Erase a person's data": every occurrence carrying the identifier, across the organization's projects. */
export function EraseUserDataCard() {
  const { can } = usePermissions();
  const utils = trpc.useUtils();
  const [field, setField] = useState<Field>("email");
  const [value, setValue] = useState("");
  const erase = useToastMutation((input: EraseUserDataInput) => utils.client.deletion.eraseUserData.mutate(input), {
    success: "Erasure started: its progress is under Deletions",
    onSuccess: async () => {
      setValue("");
      await utils.deletion.list.invalidate();
    },
  });
  if (!can("organization:update")) return null;
  const trimmed = value.trim();
  return (
    <Card id="erase-user-data" data-testid="erase-user-data-card" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>Erase a person's data</CardTitle>
        <CardDescription>
          Removes every occurrence whose user carries this identifier, in all projects (an erasure request). Issue counters keep their history; the audit keeps
          a hash of the identifier, never the identifier itself.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-3">
        <FormField id="erase-field" label="Identifier" className="gap-1.5">
          <NativeSelect id="erase-field" className="w-36" value={field} onChange={(event) => setField(event.target.value as Field)}>
            {Object.entries(FIELDS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="erase-value" label={FIELDS[field]} className="min-w-64 flex-1 gap-1.5">
          <Input id="erase-value" value={value} onChange={(event) => setValue(event.target.value)} data-testid="erase-value" />
        </FormField>
        <ConfirmDialog
          title="Erase this person's data?"
          description={`Every occurrence whose user ${FIELDS[field].toLowerCase()} is "${trimmed}" is removed for good, in every project of this organization.`}
          confirmLabel="Erase"
          destructive
          onConfirm={() => erase.mutateAsync({ [field]: trimmed } as EraseUserDataInput)}
          testId="erase-user-data-dialog"
          trigger={
            <Button variant="destructive" disabled={trimmed === ""} data-testid="erase-user-data">
              <UserXIcon /> Erase…
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}
