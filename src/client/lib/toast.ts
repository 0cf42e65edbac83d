import { useSyncExternalStore } from "react";

/**
 * The app's toasts, with sonner loaded by the first one: it was 8 KB of every first load
 * (compressed) for toasts most loads never show (issue 37 item 13). The toaster mounts once a
 * toast is asked for (RootLayout), and sonner replays the toasts created before it subscribed.
 */
type Sonner = typeof import("sonner");
type Kind = "success" | "info" | "error";

let sonner: Promise<Sonner> | undefined;
let toasterWanted = false;
const listeners = new Set<() => void>();

function show(kind: Kind, message: string) {
  if (!toasterWanted) {
    toasterWanted = true;
    for (const listener of listeners) listener();
  }
  sonner ??= import("sonner");
  sonner.then(
    (loaded) => loaded.toast[kind](message),
    // A chunk that failed to load (a redeploy) is asked for again by the next toast.
    () => (sonner = undefined),
  );
}

export const toast = {
  success: (message: string) => show("success", message),
  info: (message: string) => show("info", message),
  error: (message: string) => show("error", message),
};

/** Whether a toast has been asked for, so the toaster must be on the page. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasterWanted,
  );
}
