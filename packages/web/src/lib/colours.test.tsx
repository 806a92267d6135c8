import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ColourDialog } from '@/components/colours/colour-dialog';
import { clearSession, storeSession } from './session';
import { COLOURS_STORAGE_KEY, DEFAULT_COLOURS, getColours, readColours, reloadColours, setColours, writeColours } from './colours';

const stored = () => JSON.parse(window.localStorage.getItem(COLOURS_STORAGE_KEY) ?? 'null') as unknown;
const cssVar = (name: string) => document.documentElement.style.getPropertyValue(name);

describe('custom colours in localStorage (docs/screens.md "Browser storage")', () => {
  beforeEach(() => {
    window.localStorage.clear();
    reloadColours();
  });

  it('defaults to a dark grey background and white text', () => {
    expect(readColours()).toEqual({ selectBackground: '#333333', selectText: '#ffffff' });
    expect(DEFAULT_COLOURS).toEqual({ selectBackground: '#333333', selectText: '#ffffff' });
  });

  it('reads what is stored under customColors at start and applies it', () => {
    window.localStorage.setItem(COLOURS_STORAGE_KEY, JSON.stringify({ selectBackground: '#112233', selectText: '#fafafa' }));
    expect(reloadColours()).toEqual({ selectBackground: '#112233', selectText: '#fafafa' });
    expect(cssVar('--select-bg')).toBe('#112233');
    expect(cssVar('--select-text')).toBe('#fafafa');
  });

  it('ignores junk in storage', () => {
    window.localStorage.setItem(COLOURS_STORAGE_KEY, '{not json');
    expect(readColours()).toEqual(DEFAULT_COLOURS);
    window.localStorage.setItem(COLOURS_STORAGE_KEY, JSON.stringify({ selectBackground: 'red;}', selectText: 42 }));
    expect(readColours()).toEqual(DEFAULT_COLOURS);
  });

  it('rewrites storage on every change', () => {
    setColours({ selectBackground: '#000000' });
    expect(stored()).toEqual({ selectBackground: '#000000', selectText: '#ffffff' });
    setColours({ selectText: '#ff0000' });
    expect(stored()).toEqual({ selectBackground: '#000000', selectText: '#ff0000' });
    expect(getColours()).toEqual({ selectBackground: '#000000', selectText: '#ff0000' });
    writeColours({ selectBackground: '#abcdef', selectText: '#123456' });
    expect(readColours()).toEqual({ selectBackground: '#abcdef', selectText: '#123456' });
  });

  it('the dialog stores each picker change; Save and Cancel only close it', async () => {
    render(<ColourDialog />);
    fireEvent.click(screen.getByRole('button', { name: 'Customize Colors' }));
    const bg = (await screen.findByLabelText('Select Background Color')) as HTMLInputElement;
    const text = screen.getByLabelText('Select Text Color') as HTMLInputElement;
    expect(bg.value).toBe('#333333');
    fireEvent.change(bg, { target: { value: '#445566' } });
    expect(stored()).toEqual({ selectBackground: '#445566', selectText: '#ffffff' });
    fireEvent.change(text, { target: { value: '#eeeeee' } });
    expect(stored()).toEqual({ selectBackground: '#445566', selectText: '#eeeeee' });
    expect(cssVar('--select-bg')).toBe('#445566');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Select Background Color')).toBeNull();
    expect(stored()).toEqual({ selectBackground: '#445566', selectText: '#eeeeee' });

    fireEvent.click(screen.getByRole('button', { name: 'Customize Colors' }));
    await screen.findByLabelText('Select Background Color');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByLabelText('Select Background Color')).toBeNull();
  });
});

describe('sign-out and the colour preference', () => {
  it('clearSession forgets the session but keeps the colours (a browser preference, not a session)', () => {
    writeColours({ selectBackground: '#123456', selectText: '#abcdef' });
    storeSession({ bearer_token: 't', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    clearSession();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('account_type')).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(COLOURS_STORAGE_KEY) ?? 'null')).toEqual({
      selectBackground: '#123456',
      selectText: '#abcdef',
    });
  });
});
