import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { AVATAR_IMAGE_MESSAGE, isAllowedAvatarUrl } from "../../shared/avatar";

/** Endpoints where a person types the picture URL: a refused one is their mistake to fix (400). */
const TYPED_BY_USER = new Set(["/update-user", "/sign-up/email"]);

const refused = (image: unknown) => typeof image === "string" && !isAllowedAvatarUrl(image);

/**
 * Profile pictures only from known provider hosts (shared/avatar.ts). A typed URL that breaks the
 * rule is refused; one that arrives in a social provider's profile (sign-in, linking) is dropped,
 * since the person cannot change it and the sign-in itself is fine.
 */
export function avatarPolicy(): BetterAuthPlugin {
  return {
    id: "faultline-avatar-policy",
    hooks: {
      before: [
        {
          matcher: (ctx) => TYPED_BY_USER.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            // An empty string would be stored and render as "no picture"; null says that.
            const image = (ctx.body as { image?: unknown } | undefined)?.image;
            if (image === "" || refused(image)) throw APIError.from("BAD_REQUEST", { code: "INVALID_IMAGE_URL", message: AVATAR_IMAGE_MESSAGE });
          }),
        },
      ],
    },
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              before: async (user) => (refused(user.image) ? { data: { ...user, image: null } } : undefined),
            },
            update: {
              // better-auth merges the returned data into the update, and skips undefined fields:
              // the stored picture stays as it was.
              before: async (user) => (refused(user.image) ? { data: { ...user, image: undefined } } : undefined),
            },
          },
        },
      },
    }),
  };
}
