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
  /** Where real deposits come from. */
  deposits: 'deposits',
  /** Where demo money comes from and returns to. */
  demoFunding: 'demo-funding',
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
} as const;
export type JournalKind = (typeof JournalKind)[keyof typeof JournalKind];

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
} as const;
