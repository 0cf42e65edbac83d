import { z } from "zod";

/**
 * Where a profile picture may be loaded from. A picture URL is fetched by the browser of everyone
 * who sees the user (member lists, menus), so an arbitrary host would learn every viewer's IP
 * address and when they looked. Only https images on the avatar hosts of the sign-in providers
 * Faultline offers are shown; the server refuses others, the client draws initials instead, and
 * the CSP's img-src lists exactly these hosts. `*.` matches subdomains only.
 *
 * Providers whose pictures are customer-specific or on a shared bucket (Cognito, Salesforce,
 * Notion's S3) are left out; Microsoft sends a data: image, accepted below; Apple and PayPal
 * send none.
 */
export const AVATAR_HOSTS: Record<string, readonly string[]> = {
  google: ["*.googleusercontent.com"],
  github: ["avatars.githubusercontent.com"],
  gitlab: ["gitlab.com", "secure.gravatar.com"],
  slack: ["avatars.slack-edge.com", "secure.gravatar.com"],
  atlassian: ["avatar-management--avatars.us-west-2.prod.public.atl-paas.net", "secure.gravatar.com"],
  discord: ["cdn.discordapp.com"],
  dropbox: ["dl-web.dropbox.com"],
  facebook: ["platform-lookaside.fbsbx.com"],
  figma: ["s3-alpha.figma.com", "s3-alpha-sig.figma.com"],
  huggingface: ["cdn-avatars.huggingface.co"],
  kakao: ["*.kakaocdn.net"],
  kick: ["files.kick.com"],
  line: ["profile.line-scdn.net"],
  linear: ["public.linear.app"],
  linkedin: ["media.licdn.com"],
  naver: ["*.pstatic.net"],
  reddit: ["styles.redditmedia.com", "www.redditstatic.com"],
  roblox: ["*.rbxcdn.com"],
  spotify: ["i.scdn.co"],
  tiktok: ["*.tiktokcdn.com", "*.tiktokcdn-us.com"],
  twitch: ["static-cdn.jtvnw.net"],
  twitter: ["pbs.twimg.com", "abs.twimg.com"],
  vk: ["*.userapi.com"],
  zoom: ["*.zoom.us"],
};

const HOST_PATTERNS = [...new Set(Object.values(AVATAR_HOSTS).flat())];

/** Small inline images (Microsoft's profile photo arrives as one); they fetch nothing. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64, ?[A-Za-z0-9+/]+={0,2}$/;
export const MAX_DATA_IMAGE_LENGTH = 100_000;

export const AVATAR_IMAGE_MESSAGE = "Picture URL must be an https:// image from a supported sign-in provider (such as Google or GitHub)";

function hostAllowed(hostname: string) {
  return HOST_PATTERNS.some((pattern) => (pattern.startsWith("*.") ? hostname.endsWith(pattern.slice(1)) : hostname === pattern));
}

/** The one rule for profile pictures, used by the server (on write) and the client (on render). */
export function isAllowedAvatarUrl(value: string): boolean {
  if (value.startsWith("data:")) return value.length <= MAX_DATA_IMAGE_LENGTH && DATA_IMAGE.test(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // URL lowercases the host and turns IDNs into punycode, so the comparison sees what the browser will fetch.
  return url.protocol === "https:" && url.username === "" && url.password === "" && url.port === "" && hostAllowed(url.hostname);
}

/** The profile form's picture field: empty (no picture) or an allowed URL. */
export const AvatarImageInput = z.union([z.literal(""), z.string().refine(isAllowedAvatarUrl, AVATAR_IMAGE_MESSAGE)]);
export type AvatarImageInput = z.infer<typeof AvatarImageInput>;

/** The CSP img-src sources for the hosts above. */
export const avatarImageSources = () => HOST_PATTERNS.map((pattern) => `https://${pattern}`);
