import { z } from 'zod';
import { says } from '@/i18n';
import { consentSchema, IDENTIFIER_FORMAT_MESSAGE, said, isSignInIdentifier, signInIdentifierSchema, tokenSchema } from '@kura/contract';

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
      .min(1, said('field.enterMemberNumber'))
      .pipe(signInIdentifierSchema)
      .refine((v) => isSignInIdentifier(v, pattern()), IDENTIFIER_FORMAT_MESSAGE),
    consent: consentField,
  });
}

/** Sign-in step 1 under the default member-number rule. */
export const signInSchema = signInSchemaWith(() => null);
export type SignInValues = z.input<typeof signInSchema>;

export const tokenFormSchema = z.object({
  token: z
    .string()
    .trim()
    // The empty code field, in plain words (validation.enterCode). The contract's own message for a missing token stays
    // the spec's ('Enter 6 digit secure OTP', what the API answers); the form asks first, in these words.
    .refine((v) => v.length > 0, says('validation.enterCode'))
    .pipe(tokenSchema),
});
export type TokenValues = z.input<typeof tokenFormSchema>;
