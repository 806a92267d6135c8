import { describe, expect, it } from 'vitest';
import { formatInZone, formatOrdinalDay, fromZonedInput, timeZoneLabel, toZonedInput, zoneOffsetMinutes } from './zoned-time';

describe('times on the organisation clock', () => {
  it('reads a wall-clock time in the organisation zone, whatever the browser zone', () => {
    expect(fromZonedInput('2026-05-03T08:00', 'Africa/Nairobi')).toBe('2026-05-03T05:00:00.000Z');
    expect(fromZonedInput('2026-05-03T08:00:30', 'America/New_York')).toBe('2026-05-03T12:00:30.000Z');
    expect(fromZonedInput('2026-01-10T08:00', 'America/New_York')).toBe('2026-01-10T13:00:00.000Z');
    expect(fromZonedInput('2026-05-03T08:00', 'UTC')).toBe('2026-05-03T08:00:00.000Z');
    expect(fromZonedInput('', 'UTC')).toBeNull();
    expect(fromZonedInput('not a time', 'UTC')).toBeNull();
  });

  it('shows an instant as the organisation wall clock reads it, and round-trips', () => {
    expect(toZonedInput('2026-05-03T05:00:00.000Z', 'Africa/Nairobi')).toBe('2026-05-03T08:00:00');
    expect(toZonedInput('2026-11-01T05:30:00.000Z', 'America/New_York')).toBe('2026-11-01T01:30:00');
    for (const zone of ['Africa/Nairobi', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      const iso = '2026-07-15T09:45:00.000Z';
      expect(fromZonedInput(toZonedInput(iso, zone), zone)).toBe(iso);
    }
    expect(toZonedInput(null, 'UTC')).toBe('');
  });

  it('handles a daylight-saving gap by landing after it', () => {
    // 2026-03-29 01:30 does not exist in London (clocks go 01:00 → 02:00).
    const iso = fromZonedInput('2026-03-29T01:30', 'Europe/London')!;
    expect(toZonedInput(iso, 'Europe/London')).toBe('2026-03-29T02:30:00');
  });

  it('names the zone with its offset at that time', () => {
    expect(zoneOffsetMinutes('Asia/Kolkata', new Date('2026-01-01T00:00:00Z'))).toBe(330);
    expect(timeZoneLabel('Africa/Nairobi', new Date('2026-05-03T00:00:00Z'))).toBe('Africa/Nairobi (UTC+03:00)');
    expect(timeZoneLabel('America/New_York', new Date('2026-01-10T00:00:00Z'))).toBe('America/New_York (UTC-05:00)');
    expect(formatInZone('2026-05-03T05:00:00.000Z', 'Africa/Nairobi')).toMatch(/08:00/);
    expect(formatInZone('2026-05-03T05:00:00.000Z', 'UTC')).toMatch(/05:00/);
  });
});

describe('the tutorial voting window', () => {
  it('names the days on the organisation calendar with ordinals', () => {
    expect(formatOrdinalDay('2025-01-08T05:00:00.000Z', 'Africa/Nairobi')).toBe('8th Jan 2025');
    expect(formatOrdinalDay('2027-08-09T20:00:00.000Z', 'Africa/Nairobi', 'long')).toBe('9th August 2027');
    // 22:30 UTC on the 31st is already the 1st in Nairobi.
    expect(formatOrdinalDay('2026-03-31T22:30:00.000Z', 'Africa/Nairobi')).toBe('1st Apr 2026');
    expect(
      ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd'].map(
        (d) => formatOrdinalDay(`2026-01-${d.replace(/\D/g, '').padStart(2, '0')}T12:00:00Z`, 'UTC').split(' ')[0],
      ),
    ).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']);
  });
});
