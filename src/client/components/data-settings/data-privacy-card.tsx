import { useEffect, useState, type ReactNode } from "react";
import { Loader2Icon, ShieldCheckIcon } from "lucide-react";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { FieldError } from "@/client/components/form-field";
import { errorMessage } from "@/client/lib/api-error";
import type { DataSettingsLayer, DataSettingsValues } from "@/shared/data-settings.views";
import { DataSettingsEditor, toLayer, type EditorState } from "./data-settings-editor";
import type { RetentionShown } from "./retention-field";

interface Loaded {
  /** What the editor starts from. */
  initial: EditorState;
  inherited?: DataSettingsValues;
  retention: RetentionShown;
  scrubbedToday: number;
}

interface Props {
  title: string;
  description: ReactNode;
  testId: string;
  query: { isPending: boolean; error: unknown; refetch: () => unknown; data: Loaded | undefined };
  save: (layer: DataSettingsLayer) => Promise<unknown>;
  saving: boolean;
  canEdit: boolean;
}

/**
 * The "Data & privacy" card of organization and project settings: retention and the scrubbing
 * settings, who may change them (organization:update), and how many values were scrubbed today.
 */
export function DataPrivacyCard({ title, description, testId, query, save, saving, canEdit }: Props) {
  return (
    <Card id="data-privacy" data-testid={testId} className="scroll-mt-20">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheckIcon className="size-4" aria-hidden /> {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2Icon className="size-4 animate-spin" /> Loading data settings…
          </p>
        ) : query.error || !query.data ? (
          <QueryErrorAlert error={query.error as Error} onRetry={() => void query.refetch()} title="Could not load the data settings" />
        ) : (
          <LoadedForm loaded={query.data} save={save} saving={saving} canEdit={canEdit} />
        )}
      </CardContent>
    </Card>
  );
}

function LoadedForm({ loaded, save, saving, canEdit }: { loaded: Loaded; save: Props["save"]; saving: boolean; canEdit: boolean }) {
  const [state, setState] = useState(loaded.initial);
  const [error, setError] = useState<string | undefined>();
  // A save answers the stored settings: start again from them.
  useEffect(() => setState(loaded.initial), [loaded.initial]);
  return (
    // noValidate: the days field's min/max would stop the submit with the browser's own bubble; the
    // card says what is wrong in the shared input's words instead.
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        const edited = toLayer(state);
        if (edited.error !== undefined) return setError(edited.error);
        save(edited.layer).catch((cause: unknown) => setError(errorMessage(cause)));
      }}
    >
      <p className="text-sm" data-testid="scrubbed-today">
        <strong>{loaded.scrubbedToday.toLocaleString()}</strong> {loaded.scrubbedToday === 1 ? "value" : "values"} scrubbed today
      </p>
      <DataSettingsEditor state={state} inherited={loaded.inherited} retention={loaded.retention} onChange={setState} disabled={!canEdit || saving} />
      <FieldError message={error} />
      {canEdit ? (
        <div>
          <Button type="submit" disabled={saving} data-testid="save-data-settings">
            {saving ? <Loader2Icon className="animate-spin" /> : null} Save data settings
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Your role can read but not change the data settings.</p>
      )}
    </form>
  );
}
