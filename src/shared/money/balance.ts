import type { AccountBalance } from '../api/account';
import { formatMoney, money } from './money';

/**
 * The account's total balance as the top bar and the user hub show it: the available
 * balance plus what is locked (positions' margin and running options' amounts), exactly,
 * as a decimal string with at least two decimals.
 */
export function totalBalance(balance: AccountBalance): string {
  return formatMoney(money(balance.balanceAmount) + money(balance.lockMargin));
}
