/**
 * Masked contact details, shown to someone who has not signed in yet (the sign-in message, the
 * public details lookup): enough for a member to recognise their own, too little to use.
 */

/**
 * `0712345689` → `********89`: the last two digits only; anything but digits is dropped. Every
 * digit shown is one fewer to guess at sign-up, and the leading ones say nothing to the member.
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${'*'.repeat(digits.length - 2)}${digits.slice(-2)}`;
}

/** `jane@example.org` → `j***@example.org`. The domain stays: it is rarely personal and helps recognition. */
export function maskEmail(email: string | null): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
