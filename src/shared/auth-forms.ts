import { z } from "zod";
import { boundedText } from "./text.inputs";

// Form rules and messages of the product spec §5, verbatim; shared by the client forms and tests.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
/** Not in the spec; the product's own bound (a 2 MiB name was once mailed to every member). */
export const NAME_MAX_LENGTH = 100;

export const MESSAGES = {
  password: "Password must be at least 8 characters long",
  passwordTooLong: "Password must be at most 128 characters long",
  email: "Please enter a valid email address",
  passwordsDoNotMatch: "Passwords do not match",
  name: "Please enter your full name",
  nameTooLong: "Names are at most 100 characters",
  dataLocation: "Only United States is available right now",
  acceptPolicy: "You must agree to the Privacy Policy",
} as const;

export const Password = z.string().min(PASSWORD_MIN_LENGTH, MESSAGES.password).max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong);
export const Email = z.email(MESSAGES.email);
/** A person's name: sign-up, profile, and the auth service's check of both. */
export const UserName = boundedText(NAME_MAX_LENGTH, MESSAGES.nameTooLong, { length: NAME_MIN_LENGTH, message: MESSAGES.name });

export const SignupForm = z.object({
  name: UserName,
  email: Email,
  password: Password,
  dataLocation: z.string().refine((value) => value === "us", MESSAGES.dataLocation),
  acceptPolicy: z.boolean().refine((value) => value === true, MESSAGES.acceptPolicy),
});
export type SignupForm = z.infer<typeof SignupForm>;

export const LoginForm = z.object({ email: Email, password: z.string().min(1, MESSAGES.password) });
export type LoginForm = z.infer<typeof LoginForm>;

export const ForgotPasswordForm = z.object({ email: Email });
export type ForgotPasswordForm = z.infer<typeof ForgotPasswordForm>;

export const ResetPasswordForm = z
  .object({ password: Password, confirmPassword: z.string() })
  .refine((form) => form.confirmPassword === form.password, { message: MESSAGES.passwordsDoNotMatch, path: ["confirmPassword"] });
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

export const ChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, "Please enter your current password"),
    password: Password,
    confirmPassword: z.string(),
    revokeOtherSessions: z.boolean(),
  })
  .refine((form) => form.confirmPassword === form.password, { message: MESSAGES.passwordsDoNotMatch, path: ["confirmPassword"] });
export type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

/** The only value the login screen's `redirect` search param may carry. */
export const LOGIN_REDIRECTS = ["/onboarding"] as const;
