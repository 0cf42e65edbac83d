import { ALL_PERMISSIONS, type Permission } from "../../shared/permissions";
import { orgProcedure, router } from "../trpc/init";
import { permissionsOf } from "./permissions";

/** What the caller's role lets them do in the active organization; the screens show and hide controls by it (the server checks every call again). */
export const permissionRouter = router({
  mine: orgProcedure.query(async ({ ctx }): Promise<{ role: string; permissions: Permission[] }> => {
    const granted = await permissionsOf(ctx);
    return { role: ctx.org.role, permissions: ALL_PERMISSIONS.filter((permission) => granted.has(permission)) };
  }),
});
