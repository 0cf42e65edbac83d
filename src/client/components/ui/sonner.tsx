import type * as React from "react";
import { Toaster as Sonner } from "sonner";
import { TOASTER } from "@/shared/constants";
import { useTheme } from "@/client/lib/theme";

/** The one toaster of the app, configured with the spec's toast constants (§9). */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme}
      position={TOASTER.position}
      visibleToasts={TOASTER.visibleToasts}
      duration={TOASTER.duration}
      gap={TOASTER.gap}
      hotkey={[...TOASTER.hotkey]}
      richColors
      closeButton
      // sonner reads the toast width from this CSS variable; swipe threshold (45 px) and removal
      // delay (200 ms) are sonner's fixed values and already match the spec.
      style={{ "--width": `${TOASTER.width}px` } as React.CSSProperties}
    />
  );
}
