import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { THEMES, type Theme } from "@/shared/constants";
import { useTheme } from "@/client/lib/theme";
import { Button } from "./ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from "./ui/dropdown-menu";
import { cn } from "@/client/lib/utils";

export const THEME_LABELS: Record<Theme, string> = { light: "Light", dark: "Dark", system: "System" };
const THEME_ICONS: Record<Theme, typeof SunIcon> = { light: SunIcon, dark: MoonIcon, system: MonitorIcon };

/** Header control: a menu with the three theme choices. */
export function ThemeToggle() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  const Icon = resolvedTheme === "dark" ? MoonIcon : SunIcon;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" data-testid="theme-toggle" aria-label={`Theme: ${THEME_LABELS[theme]}`}>
          <Icon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
          {THEMES.map((option) => {
            const OptionIcon = THEME_ICONS[option];
            return (
              <DropdownMenuRadioItem key={option} value={option} data-testid={`theme-${option}`}>
                <OptionIcon className="size-4" /> {THEME_LABELS[option]}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Settings control: the same three choices as a visible segmented group. Its test ids differ from
 * the header toggle's because both can be on one page.
 */
export function ThemeChoice() {
  const { theme, setTheme } = useTheme();
  return (
    <div role="radiogroup" aria-label="Theme" data-testid="theme-choice" className="inline-flex gap-1 rounded-lg border bg-muted p-1">
      {THEMES.map((option) => {
        const OptionIcon = THEME_ICONS[option];
        const selected = theme === option;
        return (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={selected}
            data-testid={`theme-choice-${option}`}
            onClick={() => setTheme(option)}
            className={cn(
              "inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
              selected && "bg-background text-foreground shadow-sm",
            )}
          >
            <OptionIcon className="size-4" /> {THEME_LABELS[option]}
          </button>
        );
      })}
    </div>
  );
}
