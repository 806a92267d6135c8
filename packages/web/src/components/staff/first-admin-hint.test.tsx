import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { contract } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { stub, stubRoutes } from '@/test/fetch';
import { setLocale } from '@/i18n';
import { StaffLogin } from './staff-login';
import { tokenFromHash } from './set-password-page';

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

const status = (admin_exists: boolean) => stub(contract.api.staff.getStaffStatus, { status: 200, body: { data: { admin_exists } } });

describe('an empty install says how to create the first admin', () => {
  it('on the admin login while no admin exists: the command, Docker and ADMIN_EMAIL', async () => {
    stubRoutes(status(false));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('No admin yet');
    expect(note.textContent).toContain('pnpm cli admin:create you@example.org');
    expect(note.textContent).toContain('docker compose exec server kura admin:create');
    expect(note.textContent).toContain('ADMIN_EMAIL');
  });

  it('in Kiswahili too', async () => {
    setLocale('sw');
    stubRoutes(status(false));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    expect((await screen.findByRole('note')).textContent).toContain('Bado hakuna msimamizi');
  });

  it('says nothing once an admin exists', async () => {
    const calls = stubRoutes(status(true));
    await renderWithProviders(<StaffLogin role="admin" />, '/admin/login');
    await waitFor(() => expect(calls.some((c) => c.path === '/staff/status')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('the set-password link', () => {
  it('carries its token in the fragment', () => {
    expect(tokenFromHash('#token=12.345.abc_-')).toBe('12.345.abc_-');
    expect(tokenFromHash('')).toBe('');
  });
});
