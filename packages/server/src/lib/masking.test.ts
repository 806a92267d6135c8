import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from './masking';

describe('masking', () => {
  it('keeps only the last two digits of a phone', () => {
    expect(maskPhone('0712345689')).toBe('********89');
    expect(maskPhone(' 0712 345 689 ')).toBe('********89');
    expect(maskPhone('123')).toBe('***');
  });

  it('keeps the first letter and the domain of an email', () => {
    expect(maskEmail('jane@example.org')).toBe('j***@example.org');
    expect(maskEmail('no-at-sign')).toBe('***');
  });
});
