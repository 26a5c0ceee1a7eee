/**
 * The answer code of a call that succeeded, apart from the catalogue (which holds it too):
 * the worker's first load asks only this of an answer, and the whole catalogue would add
 * its every code to that load.
 */
export const successCode = 0;
