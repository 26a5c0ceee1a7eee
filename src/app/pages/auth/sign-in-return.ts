import { signal } from '@preact/signals-react';

/**
 * Where a sign-in from this tab is heading. Set just before the engine adopts the new
 * tokens: when the session reaches the router before the sign-in page has moved on, the
 * router goes there instead of saying "already signed in".
 */
export const signInReturnSignal = signal<string | null>(null, { name: 'signInReturn' });

