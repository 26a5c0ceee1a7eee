/**
 * The answer code of a call that succeeded, on its own: the worker's first load (its start
 * checks, the bars' history) asks only this of an answer, and even the app's codes
 * (app-codes.ts, which holds it as SUCCESS) would add 1.3 KB gzip to that load.
 */
export const successCode = 0;
