/** Where this device remembers the language chosen on it (a browser preference: it outlives a sign-out). */
export const LANGUAGE_STORAGE_KEY = 'language';
