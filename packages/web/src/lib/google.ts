/**
 * Google Identity Services: the script is loaded from the provider's accounts domain only when
 * the server configured a client id. The button callback yields a credential (an ID token).
 */
export const GSI_SCRIPT_SRC = 'https://accounts.google.com/gsi/client';

export type GoogleCredentialResponse = { credential: string; clientId?: string; select_by?: string };

type GsiButtonOptions = {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
  size?: 'large' | 'medium' | 'small';
  text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
  shape?: 'rectangular' | 'pill' | 'circle' | 'square';
  width?: number;
  /** the button's language (a BCP 47 tag) */
  locale?: string;
};

type GsiApi = {
  accounts: {
    id: {
      initialize: (options: { client_id: string; callback: (r: GoogleCredentialResponse) => void; ux_mode?: 'popup' | 'redirect' }) => void;
      renderButton: (parent: HTMLElement, options: GsiButtonOptions) => void;
    };
  };
};

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Window {
    google?: GsiApi;
  }
}

/** docs/screens.md "Messages and timings": button heights 40 (large), 32 (medium) and 20 (small). */
export const GOOGLE_BUTTON_HEIGHTS = { large: 40, medium: 32, small: 20 } as const;

let loading: Promise<GsiApi> | null = null;

export function loadGoogleScript(): Promise<GsiApi> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google);
  if (loading) return loading;
  loading = new Promise<GsiApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT_SRC;
    script.async = true;
    script.defer = true;
    script.onload = () => (window.google ? resolve(window.google) : reject(new Error('Google sign-in did not load')));
    script.onerror = () => {
      loading = null;
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export type GoogleProfile = { email: string; name: string; picture: string; sub: string; email_verified: boolean };

/** Reads the (unverified) claims of an ID token; the server verifies the token itself. */
export function decodeIdToken(credential: string): GoogleProfile | null {
  try {
    const part = credential.split('.')[1];
    if (!part) return null;
    const json = decodeURIComponent(
      atob(part.replace(/-/g, '+').replace(/_/g, '/'))
        .split('')
        .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
        .join(''),
    );
    const claims = JSON.parse(json) as Record<string, unknown>;
    return {
      email: typeof claims.email === 'string' ? claims.email : '',
      name: typeof claims.name === 'string' ? claims.name : '',
      picture: typeof claims.picture === 'string' ? claims.picture : '',
      sub: typeof claims.sub === 'string' ? claims.sub : '',
      email_verified: claims.email_verified === true || claims.email_verified === 'true',
    };
  } catch {
    return null;
  }
}
