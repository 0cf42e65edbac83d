import { useState } from "react";
import { createFileRoute, Link } from "@tanstack/react-router";
import { useMutation } from "@tanstack/react-query";
import { CheckIcon, Loader2Icon, TerminalIcon, XIcon } from "lucide-react";
import { z } from "zod";
import { authClient } from "@/client/lib/auth-client";
import { errorMessage } from "@/client/lib/api-error";
import { useRequiredSession } from "@/client/lib/session";
import { AuthLayout } from "@/client/components/auth-layout";
import { FormError, FormSuccess } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";

const DeviceSearch = z.object({
  /** verification_uri_complete carries the code, so the person only has to approve. */
  user_code: z.string().max(64).optional().catch(undefined),
});

export const Route = createFileRoute("/_authenticated/device")({
  validateSearch: (search) => DeviceSearch.parse(search),
  component: DeviceScreen,
});

/** The user code as people type it: "abcd-efgh" and "ABCDEFGH" are the same code. */
const normalizeCode = (code: string) => code.replace(/[^a-zA-Z0-9]/g, "").toUpperCase();

/** better-auth's device endpoints answer RFC 8628 errors ({ error, error_description }). */
interface DeviceError {
  message?: string;
  error_description?: string;
  statusText?: string;
}

async function deviceCall<T>(call: Promise<{ data: unknown; error: unknown }>): Promise<T> {
  const { data, error } = await call;
  if (error) {
    const { error_description, message, statusText } = error as DeviceError;
    throw new Error(error_description || message || statusText || "Something went wrong");
  }
  return data as T;
}

interface DeviceRequest {
  user_code: string;
  /** pending, approved or denied */
  status: string;
  client_id?: string;
  scope?: string;
}

/**
 * /device: where a signed-in person confirms a command-line sign-in (device authorization, spec §2
 * and §3). The tool shows a user code; here they enter it, see which client asks, and approve or
 * deny. Looking the code up claims it for this account, so nobody else can approve it.
 */
function DeviceScreen() {
  const search = Route.useSearch();
  const { user } = useRequiredSession();
  const [code, setCode] = useState(search.user_code ?? "");
  const lookup = useMutation({
    mutationFn: (userCode: string) => deviceCall<DeviceRequest>(authClient.device({ query: { user_code: userCode } })),
  });
  const decide = useMutation({
    mutationFn: async ({ userCode, approve }: { userCode: string; approve: boolean }) => {
      await deviceCall(approve ? authClient.device.approve({ userCode }) : authClient.device.deny({ userCode }));
      return approve;
    },
  });
  const request = lookup.data;
  const userCode = normalizeCode(code);

  if (decide.data !== undefined) {
    return (
      <AuthLayout title={decide.data ? "Device approved" : "Request denied"}>
        {decide.data ? (
          <FormSuccess title="You can return to your terminal">The command-line tool is now signed in as {user.email}.</FormSuccess>
        ) : (
          <FormSuccess title="Nothing was signed in">The command-line tool was refused. If you did not start this sign-in, nothing else is needed.</FormSuccess>
        )}
        <Button asChild variant="outline">
          <Link to="/dashboard">Go to the dashboard</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in a device" description={`Enter the code your command-line tool shows to sign it in as ${user.email}.`}>
      <form
        className="grid gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (userCode) lookup.mutate(userCode);
        }}
      >
        <label htmlFor="device-user-code" className="text-sm font-medium">
          Code
        </label>
        <Input
          id="device-user-code"
          data-testid="device-user-code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="ABCD-EFGH"
          className="font-mono tracking-widest uppercase"
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            lookup.reset();
          }}
        />
        <FormError message={lookup.error ? errorMessage(lookup.error) : null} />
        {!request ? (
          <Button type="submit" disabled={!userCode || lookup.isPending} data-testid="device-continue">
            {lookup.isPending ? <Loader2Icon className="animate-spin" /> : null}
            Continue
          </Button>
        ) : null}
      </form>
      {request ? (
        request.status === "pending" ? (
          <div className="grid gap-3" data-testid="device-request">
            <p className="flex items-center gap-2 text-sm">
              <TerminalIcon className="size-4" aria-hidden />
              <span>
                <span className="font-medium">{request.client_id ?? "A device"}</span> asks to sign in as you
                {request.scope ? ` (${request.scope})` : ""}.
              </span>
            </p>
            <FormError message={decide.error ? errorMessage(decide.error) : null} />
            <div className="flex gap-2">
              <Button disabled={decide.isPending} onClick={() => decide.mutate({ userCode, approve: true })} data-testid="device-approve">
                {decide.isPending ? <Loader2Icon className="animate-spin" /> : <CheckIcon />}
                Approve
              </Button>
              <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate({ userCode, approve: false })} data-testid="device-deny">
                <XIcon /> Deny
              </Button>
            </div>
          </div>
        ) : (
          <FormError message={`This code was already ${request.status}. Start the sign-in again in your terminal.`} />
        )
      ) : null}
    </AuthLayout>
  );
}
