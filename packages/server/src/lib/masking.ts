/**
 * Masked contact details, shown to someone who has not signed in yet (the sign-in message, the
 * public details lookup): enough for a member to recognise their own, too little to use.
 */

/** `0712345689` → `07******89`: the first two and last two digits; anything but digits is dropped. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/** `jane@example.org` → `j***@example.org`. The domain stays: it is rarely personal and helps recognition. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
