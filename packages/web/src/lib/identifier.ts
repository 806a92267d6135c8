import { z } from 'zod';
import { consentSchema, IDENTIFIER_FORMAT_MESSAGE, isSignInIdentifier, signInIdentifierSchema, tokenSchema } from '@kura/contract';

export const ENTER_MEMBER_NUMBER = 'Enter your member number';
/**
 * The empty code field, in plain words. The contract's own message for a missing token stays the
 * spec's ('Enter 6 digit secure OTP', what the API answers); the form asks first, in these words.
 */
export const ENTER_OTP = 'Enter the 6-digit code';

/** The consent checkbox of a form: holds a boolean, must be ticked (the contract's consentSchema). */
export const consentField = z.boolean().pipe(consentSchema);

/**
 * Sign-in step 1: an empty field asks for the member number, then the length rules, then what
 * verify/phone takes (docs/api.md "Sign-in identifiers"): a member number under the organisation's
 * format (`pattern()`, read when the field is checked; null: the default rule), an e-mail or a phone.
 */
export function signInSchemaWith(pattern: () => string | null | undefined) {
  return z.object({
    unique_id: z
      .string()
      .trim()
      .min(1, ENTER_MEMBER_NUMBER)
      .pipe(signInIdentifierSchema)
      .refine((v) => isSignInIdentifier(v, pattern()), IDENTIFIER_FORMAT_MESSAGE),
    consent: consentField,
  });
}

/** Sign-in step 1 under the default member-number rule. */
export const signInSchema = signInSchemaWith(() => null);
export type SignInValues = z.input<typeof signInSchema>;

export const tokenFormSchema = z.object({ token: z.string().trim().min(1, ENTER_OTP).pipe(tokenSchema) });
export type TokenValues = z.input<typeof tokenFormSchema>;
