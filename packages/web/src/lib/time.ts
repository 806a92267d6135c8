/** docs/screens.md "Messages and timings": redirect 2 s after a successful sign-in. */
export const LOGIN_REDIRECT_DELAY_MS = 2000;
/** docs/screens.md "Messages and timings": the pin, token and password requests are delayed 1 s. */
export const SECRET_REQUEST_DELAY_MS = 1000;
/** docs/screens.md "Messages and timings": success alerts close after 1.5 s. */
export const SUCCESS_ALERT_MS = 1500;
/**
 * docs/api.md "Rules the server enforces": at most one code per account a minute. The code step's
 * "Resend code" waits this long after a send (a 429's Retry-After, when the server says otherwise).
 */
export const RESEND_WAIT_SECONDS = 60;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
