import type { ProjectView } from "@/client/lib/trpc";
import { NativeSelect } from "./ui/select";

/** Switches the project a list screen shows. */
export function ProjectSelect({ projects, value, onChange }: { projects: ProjectView[]; value: string; onChange: (projectId: string) => void }) {
  return (
    <NativeSelect
      aria-label="Project"
      data-testid="project-select"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className="w-56 max-w-full"
    >
      {projects.map((project) => (
        <option key={project.id} value={project.id}>
          {project.name}
        </option>
      ))}
    </NativeSelect>
  );
}
