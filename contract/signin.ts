import { z } from 'zod';
import { emailSchema } from './common';

/** SIGNIN=link: POST /user/signin-link asks for a sign-in link by mail. */
export const signinLinkRequestSchema = z.object({ email: emailSchema });
/** The same answer whether or not the email has an account ("Check your email"). */
export const signinLinkResponseSchema = z.object({
  email: z.string(),
  /** The dialog offers to send again after this wait. */
  resendAfterSeconds: z.number().int().nonnegative(),
});
export type SigninLinkResponse = z.infer<typeof signinLinkResponseSchema>;

/** POST /user/signin: the token of the link (the part of its address after `#`). */
export const signinRequestSchema = z.object({ token: z.string({ error: 'The sign-in link is incomplete.' }).min(1).max(200) });
/** Who this browser is signed in as. */
export const signedInSchema = z.object({ email: z.string() });
export type SignedIn = z.infer<typeof signedInSchema>;

/** POST /api/admin/users/{email}/signout: how many signed-in browsers of the email were signed out. */
export const signedOutEverywhereSchema = z.object({ email: z.string(), ended: z.number().int().nonnegative() });
export type SignedOutEverywhere = z.infer<typeof signedOutEverywhereSchema>;
