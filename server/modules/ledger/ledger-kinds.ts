/**
 * The ledger's vocabulary, declared once: which accounts exist (a user's in each book, and
 * the house's) and why money moves (a journal's kind). Every module names accounts and
 * journals through these; the strings are what the database stores.
 */

/** A user's accounts, in each book. */
export const UserAccountKind = {
  /** Available cash. */
  cash: 'cash',
  /** What the user's open orders lock. */
  margin: 'margin',
  /** The amounts of the user's running options. */
  optionEscrow: 'option-escrow',
  /** A currency wallet (real book only): one per currency, beside the USD trading accounts. */
  wallet: 'wallet',
  /** What a pending withdrawal reserves of a wallet (real book only, one per currency). */
  withdrawalHold: 'withdrawal-hold',
} as const;
export type UserAccountKind = (typeof UserAccountKind)[keyof typeof UserAccountKind];

/** The house's accounts, in each book: the other side of every user movement. */
export const HouseAccountKind = {
  /** Order and option fees. */
  fees: 'fees',
  /** The house's side of closed positions' results. */
  tradingResult: 'trading-pnl',
  /** The house's side of option results: it pays a win's profit and keeps a loss's amount. */
  optionResult: 'option-pnl',
  /** Daily overnight fees of open positions. */
  overnight: 'overnight',
  /** Where real deposits come from (per currency). */
  deposits: 'deposits',
  /** Where paid-out withdrawals go (per currency). */
  withdrawals: 'withdrawals',
  /**
   * The house's liquidity between a wallet currency and the USD trading cash (per
   * currency): a transfer in gives it the currency and takes the USD it pays, a transfer
   * out the reverse.
   */
  exchange: 'exchange',
  /** Where demo money comes from and returns to. */
  demoFunding: 'demo-funding',
  /**
   * The house's loans to customers (real book, USD): an approved loan is paid from it into
   * the customer's cash, each approved repayment back into it. Its balance is minus what
   * customers still owe (the reconciliation compares it with the open loans).
   */
  loans: 'loans',
} as const;
export type HouseAccountKind = (typeof HouseAccountKind)[keyof typeof HouseAccountKind];

export const AccountKind = { ...UserAccountKind, ...HouseAccountKind } as const;
export type AccountKind = UserAccountKind | HouseAccountKind;

/** Why a journal moved money (its `kind`). */
export const JournalKind = {
  deposit: 'deposit',
  demoFunding: 'demo-funding',
  demoReset: 'demo-reset',
  /** An order placed: its margin locked and, for a market order, its fee charged. */
  orderOpen: 'order-open',
  /** A pending order filled: its fee charged. */
  orderFee: 'order-fee',
  /** A pending order's price moved: the margin it needs now, more locked from cash or the excess released. */
  orderMarginAdjust: 'order-margin-adjust',
  orderClose: 'order-close',
  orderCancel: 'order-cancel',
  overnightFee: 'overnight-fee',
  optionOpen: 'option-open',
  optionWin: 'option-win',
  optionLoss: 'option-loss',
  optionEqual: 'option-equal',
  optionVoid: 'option-void',
  /** Currency credited to a wallet from the house's deposits (an approved deposit). */
  walletDeposit: 'wallet-deposit',
  /** A wallet's currency into the trading cash, at the live price, less its fee. */
  transferIn: 'transfer-in',
  /** Trading cash into a wallet's currency, at the live price, less its fee. */
  transferOut: 'transfer-out',
  /** A withdrawal submitted: its amount moved from the wallet to the user's withdrawal hold. */
  withdrawalHold: 'withdrawal-hold',
  /** A withdrawal approved: the hold paid out (less its fee) and its fee to the house. */
  withdrawalPay: 'withdrawal-pay',
  /** A withdrawal rejected or canceled: the hold back to the wallet. */
  withdrawalRelease: 'withdrawal-release',
  /** A loan approved: its amount from the house's loans into the customer's trading cash. */
  loanDisbursement: 'loan-disbursement',
  /** A loan repayment approved: its amount from the customer's trading cash back to the house's loans. */
  loanRepayment: 'loan-repayment',
} as const;
export type JournalKind = (typeof JournalKind)[keyof typeof JournalKind];

/** The currency of the trading accounts and of every account before wallets. */
export const baseCurrency = 'USD';

/** Journals that move money between a wallet and the trading cash (their fees are not trading fees). */
export const walletTransferJournalKinds: readonly JournalKind[] = [JournalKind.transferIn, JournalKind.transferOut];

/** The journal of a settled option's outcome. */
export const optionOutcomeJournal = { win: JournalKind.optionWin, loss: JournalKind.optionLoss, equal: JournalKind.optionEqual } as const;

/**
 * Idempotency keys: the prefix names the event, the rest the order (or the user, the day).
 * A key is recorded once, so the event moves money once however often it is replayed.
 * The reconciliation looks journals up by these prefixes.
 */
export const JournalKeyPrefix = {
  orderOpen: 'order-open:',
  orderFee: 'order-fill-fee:',
  orderMarginAdjust: 'order-margin-adjust:',
  orderClose: 'order-close:',
  orderCancel: 'order-cancel:',
  overnight: 'overnight:',
  optionOpen: 'option-open:',
  optionSettle: 'option-settle:',
  demoFunding: 'demo-funding:',
  demoReset: 'demo-reset:',
  loanDisbursement: 'loan-disbursement:',
  loanRepayment: 'loan-repayment:',
} as const;
