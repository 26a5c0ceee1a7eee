/** What the transaction list's address may ask to open at once: a market order (`uid`) or an option (`optionUID`). */
export type TransactionQuery = { market: string } | { option: string } | null;

/** The transaction list's address query as the specification names it; the option id wins if both are given. */
export function transactionQueryOf(search: string): TransactionQuery {
  const params = new URLSearchParams(search);
  const option = params.get('optionUID')?.trim();
  if (option) return { option };
  const market = params.get('uid')?.trim();
  return market ? { market } : null;
}
