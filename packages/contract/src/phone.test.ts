import { describe, expect, it } from 'vitest';
import { formatPhone, normalisePhone } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['+254 722 345 002', '+254722345002'],
    ['254712345004', '+254712345004'],
    ['0712-345-005', '+254712345005'],
    ['0712 345 001', '+254712345001'],
    ['0712.345.006', '+254712345006'],
    ['0110 123 456', '+254110123456'],
    ['+254712345678', '+254712345678'],
    ['+44 7911 123456', '+447911123456'],
  ])('%s → %s', (input, out) => {
    expect(normalisePhone(input)).toBe(out);
  });

  it.each(['', '12345', '0202 123 456', '+254 20 2123456', '712345678', 'phone', '07123456789012', '+999 123', '0712345abc'])(
    'refuses %j',
    (input) => {
      expect(normalisePhone(input)).toBeNull();
    },
  );

  it('formats E.164 for reading', () => {
    expect(formatPhone('+254712345678')).toBe('+254 712 345678');
  });
});
