import { z } from 'zod';
import { consentSchema, identifierSchema, tokenSchema } from '@kura/contract';

export const ENTER_MEMBER_NUMBER = 'Enter your member number';
export const ENTER_OTP = 'Enter 6 digit secure OTP';

/** The consent checkbox of a form: holds a boolean, must be ticked (the contract's consentSchema). */
export const consentField = z.boolean().pipe(consentSchema);

/** Sign-in step 1: an empty field asks for the member number, then the spec's three rules. */
export const signInSchema = z.object({
  unique_id: z.string().trim().min(1, ENTER_MEMBER_NUMBER).pipe(identifierSchema),
  consent: consentField,
});
export type SignInValues = z.input<typeof signInSchema>;

export const tokenFormSchema = z.object({ token: z.string().trim().min(1, ENTER_OTP).pipe(tokenSchema) });
export type TokenValues = z.input<typeof tokenFormSchema>;
